// The versioned Chinese/English quality corpus (M-13.2) and its runner. Each case is a script of user turns
// and model answers; ScriptedLlm answers from the case, so the program's own decisions (validation,
// consolidation checks, retrieval scope) are what is measured — through the public API only.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type ChatRequest, type ChatResponse, MemoryManager, ScriptedLlm } from '../../src/index.js';
import { type CaseRepo, auditProvenance, crossRepoLeaks, repairLeaks } from './invariants.js';

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
type CandidateSpec = z.infer<typeof CandidateSpec>;
type Consolidation = { op: 'create' | 'revise' | 'supersede' | 'reject'; target?: string | undefined };

/** What the program decided on a case's labelled candidates. */
export interface CaseLabels {
  expectedAccept: number;
  expectedReject: number;
  accepted: number;
  rejected: number;
  agreed: number;
}

/** One case's outcome: every step that did not go as the corpus says, and its label counts. */
export interface CaseReport {
  id: string;
  category: string;
  failures: string[];
  labels: CaseLabels;
}

/** The M-13.3 invariants over the whole corpus. */
export interface Invariants {
  illegalProvenance: number;
  repairLeakage: number;
  crossRepoLeakage: number;
  crossThreadLeakage: number;
  forgottenRebuilt: number;
  provenanceCompleteness: number;
  activePreferencesAndDecisions: number;
}

/** The figures of a corpus run. */
export interface QualityReport {
  version: number;
  cases: CaseReport[];
  invariants: Invariants;
  labels: { candidates: number; agreed: number; falseAccepts: number; falseRejects: number; wrongReason: number };
}

/** The payload of a consolidation request, as far as the scripted answer reads it. */
interface ConsolidationPayload {
  active_items: { item_id: string; title: string }[];
  candidates: { candidate_id: string; title: string; aliases: string[] }[];
}

export function loadCorpus(path: string): Corpus {
  return Corpus.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** Runs every case in its own temporary repository and measures the M-13.3 invariants. */
export async function runCorpus(corpus: Corpus, options: { keepRepos?: boolean } = {}): Promise<QualityReport> {
  const reports: CaseReport[] = [];
  const repos: CaseRepo[] = [];
  const invariants: Invariants = {
    illegalProvenance: 0,
    repairLeakage: 0,
    crossRepoLeakage: 0,
    crossThreadLeakage: 0,
    forgottenRebuilt: 0,
    provenanceCompleteness: 1,
    activePreferencesAndDecisions: 0,
  };
  let complete = 0;
  for (const c of corpus.cases) {
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-quality-${c.id}-`));
    const { report, titles, threadLeaks } = await runCase(c, dir);
    reports.push(report);
    invariants.crossThreadLeakage += threadLeaks;
    invariants.repairLeakage += await repairLeaks(dir);
    const audit = await auditProvenance(dir);
    invariants.illegalProvenance += audit.illegal;
    invariants.forgottenRebuilt += audit.forgottenRebuilt;
    invariants.activePreferencesAndDecisions += audit.active;
    complete += audit.complete;
    repos.push({ id: c.id, dir, titles });
  }
  invariants.provenanceCompleteness =
    invariants.activePreferencesAndDecisions === 0 ? 1 : complete / invariants.activePreferencesAndDecisions;
  invariants.crossRepoLeakage = await crossRepoLeaks(repos);
  if (!options.keepRepos) for (const r of repos) rmSync(r.dir, { recursive: true, force: true });
  const labels = { candidates: 0, agreed: 0, falseAccepts: 0, falseRejects: 0, wrongReason: 0 };
  for (const r of reports) {
    labels.candidates += r.labels.expectedAccept + r.labels.expectedReject;
    labels.agreed += r.labels.agreed;
    for (const f of r.failures) {
      if (f.startsWith('false accept')) labels.falseAccepts += 1;
      else if (f.startsWith('false reject')) labels.falseRejects += 1;
      else if (f.startsWith('wrong reason')) labels.wrongReason += 1;
    }
  }
  return { version: corpus.version, cases: reports, invariants, labels };
}

async function runCase(c: CorpusCase, dir: string): Promise<{ report: CaseReport; titles: string[]; threadLeaks: number }> {
  let extraction: (() => ChatResponse) | null = null;
  let consolidation: Consolidation = { op: 'create' };
  const llm = new ScriptedLlm()
    .always('memory_extraction', () => {
      if (!extraction) throw new Error('no extraction scripted');
      return extraction();
    })
    .always('memory_consolidation', (request: ChatRequest) => {
      const payload = JSON.parse(request.messages[1]!.content) as ConsolidationPayload;
      const target = consolidation.target
        ? (payload.active_items.find((i) => i.title === consolidation.target)?.item_id ?? 'missing')
        : null;
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
    });
  const memory = MemoryManager.open({ repoRoot: dir, llm });
  const failures: string[] = [];
  const labels: CaseLabels = { expectedAccept: 0, expectedReject: 0, accepted: 0, rejected: 0, agreed: 0 };
  const turnIds: string[] = [];
  let threadLeaks = 0;
  const probe = () => memory.beginTurn({ intent: 'general_chat', userText: '(quality probe)' });
  const titleToId = (title: string): string | undefined => memory.list().find((i) => i.title === title)?.id;
  try {
    for (const step of c.steps) {
      if ('say' in step) {
        const h = memory.beginTurn({ intent: 'general_chat', userText: step.say });
        memory.completeTurn(h, step.answer);
        turnIds.push(h.turnId);
      } else if ('extract' in step) {
        const spec = step.extract;
        extraction = () => {
          if (spec.raw !== undefined) return { content: spec.raw };
          const candidates = (spec.candidates ?? []).map((cand) => ({
            kind: cand.kind,
            title: cand.title,
            content: cand.content ?? cand.title,
            aliases: cand.aliases ?? [],
            sources: cand.sources.map((s) => ({
              turn_id: s.turn === 'unknown' ? 'turn-does-not-exist' : (turnIds[s.turn] ?? 'turn-out-of-range'),
              role: s.role,
              quote: s.quote,
            })),
            ...cand.extra,
          }));
          return { content: JSON.stringify({ thread_compaction: spec.compaction ?? '', candidates, ...spec.answerExtra }) };
        };
        const newest = memory.refused({ limit: 1 })[0]?.candidateId;
        const result = await memory.processDue({ force: true });
        const outcome = result.outcomes.find((o) => o.kind === 'extraction');
        if (spec.answer === 'invalid') {
          if (outcome?.outcome !== 'retry') failures.push(`answer should be refused as a whole, got ${outcome?.outcome ?? 'nothing'}`);
        } else if (!outcome || outcome.outcome === 'retry' || outcome.outcome === 'fenced') {
          failures.push(`extraction did not commit: ${outcome?.error ?? 'no job ran'}`);
        } else {
          judgeLabels(memory, newest, spec.candidates ?? [], failures, labels);
        }
      } else if ('consolidate' in step) {
        consolidation = step.consolidate;
      } else if ('newThread' in step) {
        await memory.newThread();
      } else if ('forget' in step) {
        const id = titleToId(step.forget);
        if (!id) failures.push(`cannot forget '${step.forget}': not active`);
        else memory.forget(id);
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

/** Compares the program's decision on each candidate with the corpus label, from `refused()`: what it refused since `newest`. */
function judgeLabels(
  memory: MemoryManager,
  newest: string | undefined,
  specs: CandidateSpec[],
  failures: string[],
  labels: CaseLabels,
): void {
  const recent = memory.refused({ limit: 64 });
  const cut = recent.findIndex((r) => r.candidateId === newest);
  const refusals = cut < 0 ? recent : recent.slice(0, cut);
  for (const spec of specs) {
    const rejection = refusals.find(
      (r) => r.title === spec.title.trim().slice(0, 120) || spec.title.startsWith(r.title.replace(/…$/u, '')),
    );
    const accepted = rejection === undefined;
    if (spec.expect === 'accept') labels.expectedAccept += 1;
    else labels.expectedReject += 1;
    if (accepted) labels.accepted += 1;
    else labels.rejected += 1;
    if (spec.expect === 'accept') {
      if (rejection === undefined) labels.agreed += 1;
      else failures.push(`false reject: '${spec.title}' (${rejection.reason})`);
    } else if (rejection === undefined) {
      failures.push(`false accept: '${spec.title}' (expected ${spec.expect})`);
    } else if (spec.expect !== 'reject' && rejection.reason !== spec.expect) {
      failures.push(`wrong reason: '${spec.title}' refused as ${rejection.reason}, expected ${spec.expect}`);
    } else {
      labels.agreed += 1;
    }
  }
}
