import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryManager } from '../../../src/index.js';
import { OpenAiCompatibleProvider } from '../../../src/llm/openai-provider.js';
import { FakeOpenAi, type RecordedRequest, type Reply } from '../../helpers/fake-openai.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../../helpers/temp-repo.js';

/**
 * M-5.5, M-6.4, M-9.4a against the answer habits of real models (DeepSeek, Qwen, GPT-4o-class, local
 * Ollama/vLLM models): every case of `test/fixtures/model-answers.json` runs through the real
 * OpenAI-compatible provider and a local fake server, with one forced `processDue` per round. Safe
 * deviations (form only) must form exactly the expected memories; unsafe ones (paraphrase, stitched
 * quotes, truncation, unsupported text, unrelated retargeting, obeyed injections) must form none.
 */

interface Answer {
  content: string;
  finish_reason: string;
}
interface Round {
  turns: { user: string; assistant: string }[];
  extraction: Answer | Answer[];
  consolidation?: Answer | Answer[];
}
interface Case extends Round {
  id: string;
  class: string;
  habit: string;
  safe: boolean;
  setup?: Round[];
  expect: {
    active: { kind: string; quote: string }[];
    refusals: string[];
    extraction_job: 'succeeded' | 'succeeded_no_output' | 'retry';
    consolidation_job?: 'succeeded' | 'retry';
    compaction_includes?: string;
  };
}

const cases = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/model-answers.json'), 'utf8')) as Case[];

let server: FakeOpenAi;
beforeAll(async () => {
  server = await new FakeOpenAi().start();
});
afterAll(async () => {
  await server.stop();
});

const list = <T,>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const isExtraction = (r: RecordedRequest): boolean => (r.body.messages?.[0]?.content ?? '').startsWith('You maintain the long-term memory');

function substitute(text: string, names: Record<string, string>): string {
  return text.replace(/\{\{([TSCI]\d+)\}\}/gu, (whole, name: string) => names[name] ?? whole);
}

/** A wire answer with the provider's finish reason, as an OpenAI-compatible endpoint sends it. */
function wire(answer: Answer, names: Record<string, string>): Reply {
  return {
    raw: JSON.stringify({
      id: 'chatcmpl-case', object: 'chat.completion', created: 0, model: 'fake',
      choices: [{ index: 0, finish_reason: answer.finish_reason, message: { role: 'assistant', content: substitute(answer.content, names) } }],
    }),
  };
}

interface Outcome {
  extractionStatus: string[];
  consolidationStatus: string[];
  refusals: string[];
}

/** Records one round's turns, answers its model calls from the fixture and runs one forced processDue. */
async function runRound(memory: MemoryManager, repo: string, round: Round): Promise<Outcome> {
  const names: Record<string, string> = {};
  const turnIds: string[] = [];
  round.turns.forEach((t, i) => {
    const handle = memory.beginTurn({ intent: 'general_chat', userText: t.user });
    memory.completeTurn(handle, t.assistant);
    names[`T${i + 1}`] = handle.turnId;
    names[`S${i + 1}`] = String(handle.sequence);
    turnIds.push(handle.turnId);
  });
  withRawDb(dbPathOf(repo), (db) => {
    const items = db.prepare("SELECT id FROM memory_items WHERE status = 'active' ORDER BY created_at, rowid").all() as { id: string }[];
    items.forEach((row, i) => (names[`I${i + 1}`] = row.id));
  });
  const extraction = list(round.extraction);
  const consolidation = list(round.consolidation);
  server.always((request) => {
    if (isExtraction(request)) {
      const next = extraction.shift();
      return next ? wire(next, names) : { status: 500, body: '{"error":{"message":"no scripted extraction answer left"}}' };
    }
    const payload = JSON.parse(request.body.messages?.[1]?.content ?? '{}') as { candidates?: { candidate_id: string }[] };
    (payload.candidates ?? []).forEach((c, i) => (names[`C${i + 1}`] = c.candidate_id));
    const next = consolidation.shift();
    return next ? wire(next, names) : { status: 500, body: '{"error":{"message":"no scripted consolidation answer left"}}' };
  });
  const before = refusalReasons(repo);
  await memory.processDue({ force: true });
  return withRawDb(dbPathOf(repo), (db) => {
    const extractionJobs = db
      .prepare(`SELECT id, status FROM memory_jobs WHERE kind = 'extraction' AND turn_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(turnIds)) as { id: string; status: string }[];
    const children = db
      .prepare(`SELECT status FROM memory_jobs WHERE kind = 'consolidation' AND parent_job_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(extractionJobs.map((j) => j.id))) as { status: string }[];
    const after = refusalReasons(repo, db);
    return { extractionStatus: extractionJobs.map((j) => j.status), consolidationStatus: children.map((c) => c.status), refusals: subtract(after, before) };
  });
}

function refusalReasons(repo: string, open?: import('better-sqlite3').Database): string[] {
  const read = (db: import('better-sqlite3').Database): string[] =>
    (db.prepare(`SELECT f.key AS reason, f.value AS n FROM memory_jobs j, json_each(j.diagnostics, '$.filtered') f WHERE j.finished_at IS NOT NULL`).all() as { reason: string; n: number }[])
      .flatMap((r) => Array.from({ length: r.n }, () => r.reason));
  return open ? read(open) : withRawDb(dbPathOf(repo), read);
}

function subtract(after: string[], before: string[]): string[] {
  const rest = [...before];
  return after.filter((r) => {
    const at = rest.indexOf(r);
    if (at < 0) return true;
    rest.splice(at, 1);
    return false;
  }).sort();
}

const jobState = (status: string): string => (status === 'retry_wait' || status === 'pending' ? 'retry' : status);

describe('M-5.5 / M-6.4 / M-9.4a real model answers (fixture corpus)', () => {
  it('holds at least 40 deviation cases, safe and unsafe', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.safe).length).toBeGreaterThan(20);
    expect(cases.filter((c) => !c.safe).length).toBeGreaterThan(20);
  });

  for (const c of cases) {
    it(`${c.safe ? 'forms' : 'refuses'} — ${c.class}: ${c.id}`, async () => {
      const repo = tempRepo();
      const clock = new ManualClock();
      const llm = new OpenAiCompatibleProvider({ baseUrl: server.url, apiKey: 'k', model: 'm', reasoningEffort: null, extraBody: {}, timeoutMs: 5_000 });
      const memory = MemoryManager.open({ repoRoot: repo, llm, now: clock.now });
      try {
        for (const round of c.setup ?? []) {
          await runRound(memory, repo, round);
          clock.advance(1_000);
        }
        const outcome = await runRound(memory, repo, c);
        expect(outcome.extractionStatus.map(jobState), 'extraction job').toEqual(outcome.extractionStatus.map(() => c.expect.extraction_job));
        if (c.expect.consolidation_job) expect(outcome.consolidationStatus.map(jobState), 'consolidation job').toEqual([c.expect.consolidation_job]);
        expect(outcome.refusals, 'refusals').toEqual([...c.expect.refusals].sort());

        const active = memory.list().map((item) => ({ item, detail: memory.show(item.id) }));
        const unmatched = [...active];
        for (const wanted of c.expect.active) {
          const at = unmatched.findIndex((a) => a.item.kind === wanted.kind && a.detail.sources.some((s) => s.quote === wanted.quote));
          expect(at, `expected ${wanted.kind} quoting "${wanted.quote}" among ${JSON.stringify(active.map((a) => [a.item.kind, a.detail.sources.map((s) => s.quote)]))}`).toBeGreaterThanOrEqual(0);
          unmatched.splice(at, 1);
        }
        expect(unmatched.map((a) => a.item.title), 'memories that must not exist').toEqual([]);
        // Provenance stays verbatim: every stored quote is the RAW text at its stored offset.
        withRawDb(dbPathOf(repo), (db) => {
          const bad = db
            .prepare(
              `SELECT cs.quote FROM candidate_sources cs JOIN turns t ON t.id = cs.turn_id
                WHERE substr(CASE cs.role WHEN 'user' THEN t.user_text ELSE t.assistant_text END, cs.quote_start + 1, length(cs.quote)) <> cs.quote`,
            )
            .all();
          expect(bad).toEqual([]);
        });
        if (c.expect.compaction_includes) {
          const compaction = withRawDb(dbPathOf(repo), (db) => (db.prepare("SELECT compaction FROM threads WHERE status = 'active'").get() as { compaction: string }).compaction);
          expect(compaction).toContain(c.expect.compaction_includes);
        }
      } finally {
        await memory.close();
      }
    });
  }
});
