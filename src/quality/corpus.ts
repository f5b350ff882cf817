import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ChatRequest, ChatResponse, LlmClient } from '../llm/types.js';
import { Connection } from '../memory/connection.js';
import { MemoryManager } from '../memory/manager.js';
import type { TurnHandle } from '../memory/types.js';
import { auditProvenance, crossRepoLeaks, repairLeaks } from './invariants.js';

export { auditProvenance, repairLeaks } from './invariants.js';
export { type LiveReport, runCorpusLive } from './live.js';

/**
 * The versioned Chinese/English quality corpus (M-13.2) and its runner. Each case is a script of user
 * turns and model answers; a scripted model answers from the case, so the program's own decisions
 * (validation, consolidation checks, retrieval scope) are what is measured.
 */

const SourceSpec = z.strictObject({
  turn: z.union([z.number().int().min(0), z.literal('unknown')]),
  role: z.enum(['user', 'assistant']),
  quote: z.string(),
});

const CandidateSpec = z.strictObject({
  kind: z.string(),
  title: z.string(),
  content: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  sources: z.array(SourceSpec),
  /** 'accept', or the refusal reason the program must give. */
  expect: z.string(),
  /** Keys merged into the candidate as the model sends it (adversarial output). */
  extra: z.record(z.string(), z.unknown()).optional(),
});

const Step = z.union([
  z.strictObject({ say: z.string(), answer: z.string().default('好的 / OK') }),
  z.strictObject({
    extract: z.strictObject({
      compaction: z.string().optional(),
      candidates: z.array(CandidateSpec).optional(),
      raw: z.string().optional(),
      answerExtra: z.record(z.string(), z.unknown()).optional(),
      /** 'valid' (default) or 'invalid': the whole answer must be refused. */
      answer: z.enum(['valid', 'invalid']).optional(),
    }),
  }),
  z.strictObject({
    consolidate: z.strictObject({ op: z.enum(['create', 'revise', 'supersede', 'reject']), target: z.string().optional() }),
  }),
  z.strictObject({ newThread: z.literal(true) }),
  z.strictObject({ forget: z.string() }),
  z.strictObject({ replay: z.literal(true) }),
  z.strictObject({ search: z.string(), expect: z.array(z.string()) }),
  z.strictObject({ routingHas: z.array(z.string()).optional(), routingLacks: z.array(z.string()).optional() }),
]);

const Case = z.strictObject({
  id: z.string(),
  category: z.string(),
  description: z.string(),
  steps: z.array(Step),
});

export const Corpus = z.strictObject({
  version: z.number().int(),
  categories: z.array(z.string()),
  cases: z.array(Case),
});

export type Corpus = z.infer<typeof Corpus>;
export type CorpusCase = z.infer<typeof Case>;

export function loadCorpus(path: string): Corpus {
  return Corpus.parse(JSON.parse(readFileSync(path, 'utf8')));
}

export interface CaseReport {
  id: string;
  category: string;
  failures: string[];
  labels: { expectedAccept: number; expectedReject: number; accepted: number; rejected: number; agreed: number };
}

export interface Invariants {
  illegalProvenance: number;
  /** Requests of repair flows that carried Memory context, Memory tools or earlier messages. */
  repairLeakage: number;
  crossRepoLeakage: number;
  crossThreadLeakage: number;
  forgottenRebuilt: number;
  /** Share of active preferences/decisions with complete, verified user provenance (1 = 100 %). */
  provenanceCompleteness: number;
  activePreferencesAndDecisions: number;
}

export interface QualityReport {
  version: number;
  cases: CaseReport[];
  invariants: Invariants;
  labels: { candidates: number; agreed: number; falseAccepts: number; falseRejects: number; wrongReason: number };
}

type Reply = (request: ChatRequest) => ChatResponse;

/** A model that answers each call from the reply the runner set for it. */
class CaseModel implements LlmClient {
  extraction: Reply | null = null;
  consolidation: Reply | null = null;
  async chat(request: ChatRequest): Promise<ChatResponse> {
    const reply = request.purpose === 'memory_extraction' ? this.extraction : request.purpose === 'memory_consolidation' ? this.consolidation : null;
    if (!reply) throw new Error(`no scripted reply for ${request.purpose}`);
    return reply(request);
  }
}

interface Payload {
  turns: { turn_id: string }[];
  candidates: { candidate_id: string; title: string; aliases: string[] }[];
  active_items: { item_id: string; title: string }[];
}

/** Runs every case in its own temporary repository and measures the M-13.3 invariants. */
export async function runCorpus(corpus: Corpus, options: { keepRepos?: boolean } = {}): Promise<QualityReport> {
  const reports: CaseReport[] = [];
  const repos: { id: string; dir: string; titles: string[] }[] = [];
  const invariants: Invariants = {
    illegalProvenance: 0, repairLeakage: 0, crossRepoLeakage: 0, crossThreadLeakage: 0, forgottenRebuilt: 0,
    provenanceCompleteness: 1, activePreferencesAndDecisions: 0,
  };
  let complete = 0;
  for (const c of corpus.cases) {
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-quality-${c.id}-`));
    const { report, titles, threadLeaks } = await runCase(c, dir);
    reports.push(report);
    invariants.crossThreadLeakage += threadLeaks;
    invariants.repairLeakage += await repairLeaks(dir);
    const audit = auditProvenance(dir);
    invariants.illegalProvenance += audit.illegal;
    invariants.forgottenRebuilt += audit.forgottenRebuilt;
    invariants.activePreferencesAndDecisions += audit.active;
    complete += audit.complete;
    repos.push({ id: c.id, dir, titles });
  }
  invariants.provenanceCompleteness = invariants.activePreferencesAndDecisions === 0 ? 1 : complete / invariants.activePreferencesAndDecisions;
  invariants.crossRepoLeakage = crossRepoLeaks(repos);
  if (!options.keepRepos) for (const r of repos) rmSync(r.dir, { recursive: true, force: true });
  const labels = { candidates: 0, agreed: 0, falseAccepts: 0, falseRejects: 0, wrongReason: 0 };
  for (const r of reports) {
    labels.candidates += r.labels.expectedAccept + r.labels.expectedReject;
    labels.agreed += r.labels.agreed;
  }
  for (const r of reports) {
    for (const f of r.failures) {
      if (f.startsWith('false accept')) labels.falseAccepts += 1;
      else if (f.startsWith('false reject')) labels.falseRejects += 1;
      else if (f.startsWith('wrong reason')) labels.wrongReason += 1;
    }
  }
  return { version: corpus.version, cases: reports, invariants, labels };
}

async function runCase(c: CorpusCase, dir: string): Promise<{ report: CaseReport; titles: string[]; threadLeaks: number }> {
  const model = new CaseModel();
  const memory = MemoryManager.open({ repoRoot: dir, llm: model });
  const failures: string[] = [];
  const labels = { expectedAccept: 0, expectedReject: 0, accepted: 0, rejected: 0, agreed: 0 };
  const turnIds: string[] = [];
  let threadLeaks = 0;
  let consolidation: { op: string; target?: string } = { op: 'create' };
  const probe = (): TurnHandle => memory.beginTurn({ intent: 'general_chat', userText: '(quality probe)' });
  const titleToId = (title: string): string | undefined => memory.list().find((i) => i.title === title)?.id;
  model.consolidation = (request) => {
    const payload = JSON.parse(request.messages[1]!.content) as Payload;
    const target = consolidation.target ? payload.active_items.find((i) => i.title === consolidation.target)?.item_id ?? 'missing' : null;
    const operations = payload.candidates.map((cand) => ({
      operation: consolidation.op,
      candidate_ids: [cand.candidate_id],
      target_id: consolidation.op === 'create' || consolidation.op === 'reject' ? null : target,
      title: cand.title,
      content: cand.title,
      synopsis: '',
      aliases: cand.aliases,
      keywords: [],
    }));
    consolidation = { op: 'create' };
    return { content: JSON.stringify({ operations }) };
  };
  try {
    for (const step of c.steps) {
      if ('say' in step) {
        const h = memory.beginTurn({ intent: 'general_chat', userText: step.say });
        memory.completeTurn(h, step.answer);
        turnIds.push(h.turnId);
      } else if ('extract' in step) {
        const spec = step.extract;
        model.extraction = (request) => {
          if (spec.raw !== undefined) return { content: spec.raw };
          const candidates = (spec.candidates ?? []).map((cand) => ({
            kind: cand.kind,
            title: cand.title,
            content: cand.content ?? cand.title,
            aliases: cand.aliases ?? [],
            sources: cand.sources.map((s) => ({
              turn_id: s.turn === 'unknown' ? 'turn-does-not-exist' : turnIds[s.turn] ?? 'turn-out-of-range',
              role: s.role,
              quote: s.quote,
            })),
            ...cand.extra,
          }));
          void request;
          return { content: JSON.stringify({ thread_compaction: spec.compaction ?? '', candidates, ...spec.answerExtra }) };
        };
        const result = await memory.processDue({ force: true });
        const extraction = result.outcomes.find((o) => o.kind === 'extraction');
        const expectInvalid = spec.answer === 'invalid';
        if (expectInvalid) {
          if (extraction?.outcome !== 'retry') failures.push(`answer should be refused as a whole, got ${extraction?.outcome ?? 'nothing'}`);
          else labels.agreed += 0;
        } else if (!extraction || extraction.outcome === 'retry' || extraction.outcome === 'fenced') {
          failures.push(`extraction did not commit: ${extraction?.error ?? 'no job ran'}`);
        } else {
          judgeLabels(dir, extraction.jobIds[0]!, spec.candidates ?? [], failures, labels);
        }
      } else if ('consolidate' in step) {
        consolidation = step.consolidate;
      } else if ('newThread' in step) {
        await memory.newThread();
      } else if ('forget' in step) {
        const id = titleToId(step.forget);
        if (!id) failures.push(`cannot forget '${step.forget}': not active`);
        else memory.forget(id);
      } else if ('replay' in step) {
        const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'));
        conn.db.prepare("UPDATE memory_jobs SET status = 'pending', finished_at = NULL WHERE kind = 'extraction'").run();
        conn.close();
        await memory.processDue({ force: true });
      } else if ('search' in step) {
        const h = probe();
        const hits = memory.search(h, step.search).map((x) => x.title);
        memory.failTurn(h);
        const missing = step.expect.filter((t) => !hits.includes(t));
        const unexpected = hits.filter((t) => !step.expect.includes(t));
        if (missing.length > 0 || unexpected.length > 0) {
          failures.push(`search '${step.search}': got [${hits.join(', ')}], expected [${step.expect.join(', ')}]`);
          if (c.category === 'cross_thread' && unexpected.length > 0) threadLeaks += unexpected.length;
        }
      } else {
        const h = probe();
        const routing = memory.routingContext(h);
        memory.failTurn(h);
        for (const text of step.routingHas ?? []) if (!routing.includes(text)) failures.push(`routing lacks '${text}'`);
        for (const text of step.routingLacks ?? []) {
          if (routing.includes(text)) {
            failures.push(`routing shows '${text}'`);
            if (c.category === 'cross_thread') threadLeaks += 1;
          }
        }
      }
    }
  } catch (error) {
    failures.push(`case crashed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const titles = memory.status().health === 'healthy' ? memory.list().map((i) => i.title) : [];
  await memory.close();
  return { report: { id: c.id, category: c.category, failures, labels }, titles, threadLeaks };
}

/** Compares the program's decision on each candidate with the corpus label. */
function judgeLabels(
  dir: string,
  leadJobId: string,
  specs: z.infer<typeof CandidateSpec>[],
  failures: string[],
  labels: CaseReport['labels'],
): void {
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'), { readonly: true });
  try {
    const row = conn.db.prepare('SELECT diagnostics FROM memory_jobs WHERE id = ?').get(leadJobId) as { diagnostics: string | null };
    const diagnostics = row.diagnostics ? (JSON.parse(row.diagnostics) as { rejections: { title: string; reason: string }[] }) : { rejections: [] };
    const stored = new Set(
      (conn.db.prepare('SELECT title FROM memory_candidates WHERE extraction_job_id = ?').all(leadJobId) as { title: string }[]).map((r) => r.title),
    );
    for (const spec of specs) {
      const rejection = diagnostics.rejections.find((r) => r.title === spec.title);
      const accepted = stored.has(spec.title.trim());
      if (spec.expect === 'accept') labels.expectedAccept += 1;
      else labels.expectedReject += 1;
      if (accepted) labels.accepted += 1;
      else labels.rejected += 1;
      if (spec.expect === 'accept') {
        if (accepted) labels.agreed += 1;
        else failures.push(`false reject: '${spec.title}' (${rejection?.reason ?? 'not stored'})`);
      } else if (accepted) {
        failures.push(`false accept: '${spec.title}' (expected ${spec.expect})`);
      } else if (spec.expect !== 'reject' && rejection?.reason !== spec.expect) {
        failures.push(`wrong reason: '${spec.title}' refused as ${rejection?.reason ?? '?'}, expected ${spec.expect}`);
      } else {
        labels.agreed += 1;
      }
    }
  } finally {
    conn.close();
  }
}

