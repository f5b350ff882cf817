import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with `npm run eval:quality`
import { judgeModelAnswerCase, loadModelAnswerCases, runModelAnswerCase } from '../../../bench/model-answer-cases.mjs';
import { FakeOpenAi, type RecordedRequest, type Reply } from '../../helpers/fake-openai.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../../helpers/temp-repo.js';
import { openMemory } from '../../helpers/memory.js';

/**
 * M-5.5, M-6.4, M-9.4a against the answer habits of real models (DeepSeek, Qwen, GPT-4o-class, local
 * Ollama/vLLM models): every case of `test/fixtures/model-answers.json` runs through the real
 * OpenAI-compatible provider and a local fake server, with one forced `processDue` per round. Safe
 * deviations (form only) must form exactly the expected memories; unsafe ones (paraphrase, stitched
 * quotes, truncation, unsupported text, unrelated retargeting, obeyed injections) must form none.
 */

interface Case {
  id: string;
  class: string;
  safe: boolean;
  expect: { compaction_includes?: string };
  /** Strings a laundering case injects: none may reach the routing context (the system message). */
  routing_lacks?: string[];
  /** Queries that must find nothing (unrelated aliases are inert) or must find the memory. */
  search_misses?: string[];
  search_hits?: string[];
}
type Responder = (
  purpose: string,
  payload: { candidates?: { candidate_id: string }[] },
) => { content: string; finishReason: string } | null;

const cases = loadModelAnswerCases() as Case[];

let server: FakeOpenAi;
beforeAll(async () => {
  server = await new FakeOpenAi().start();
});
afterAll(async () => {
  await server.stop();
});

function purposeOf(r: RecordedRequest): string {
  return (r.body.messages?.[0]?.content ?? '').startsWith('You maintain the long-term memory')
    ? 'memory_extraction'
    : 'memory_consolidation';
}

/** Answers on the wire as an OpenAI-compatible endpoint does, with the fixture's finish reason. */
function install(respond: Responder): void {
  server.always((request): Reply => {
    const answer = respond(purposeOf(request), JSON.parse(request.body.messages?.[1]?.content ?? '{}'));
    if (!answer) return { status: 500, body: '{"error":{"message":"no scripted answer left"}}' };
    return {
      raw: JSON.stringify({
        id: 'chatcmpl-case',
        object: 'chat.completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, finish_reason: answer.finishReason, message: { role: 'assistant', content: answer.content } }],
      }),
    };
  });
}

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
      const llm = server.provider();
      const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
      try {
        const result = await runModelAnswerCase(memory, c, install, (ms: number) => clock.advance(ms));
        expect(judgeModelAnswerCase(c, result)).toEqual([]);
        const probe = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
        const routing = memory.routingContext(probe);
        for (const text of c.routing_lacks ?? []) expect(routing).not.toContain(text);
        for (const query of c.search_misses ?? []) expect(memory.search(probe, query)).toEqual([]);
        for (const query of c.search_hits ?? []) expect(memory.search(probe, query).length).toBeGreaterThan(0);
        memory.failTurn(probe);
        // Provenance stays verbatim: every stored quote is the RAW text at its stored offset.
        withRawDb(dbPathOf(repo), (db) => {
          const bad = db
            .prepare(
              `SELECT cs.quote FROM candidate_sources cs JOIN turns t ON t.id = cs.turn_id
                WHERE substr(CASE cs.role WHEN 'user' THEN t.user_text ELSE t.assistant_text END, cs.quote_start + 1, length(cs.quote)) <> cs.quote`,
            )
            .all();
          expect(bad).toEqual([]);
          if (c.expect.compaction_includes) {
            const row = db.prepare("SELECT compaction FROM threads WHERE status = 'active'").get() as { compaction: string };
            expect(row.compaction).toContain(c.expect.compaction_includes);
          }
        });
      } finally {
        await memory.close();
      }
    });
  }

  it('the judge catches a wrong outcome (it can fail)', () => {
    const c = { expect: { active: [{ kind: 'user_preference', quote: 'x' }], refusals: ['contract'], extraction_job: 'succeeded' } };
    const failures = judgeModelAnswerCase(c, {
      extraction: ['retry'],
      consolidation: [],
      refusals: [],
      active: [{ kind: 'project_decision', title: 'y', quotes: ['y'] }],
    });
    expect(failures).toHaveLength(4);
  });
});
