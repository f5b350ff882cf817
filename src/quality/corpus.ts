import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { loadConfig } from '../config/config.js';
import { OpenAiCompatibleProvider } from '../llm/openai-provider.js';
import { ScriptedLlm } from '../llm/scripted-llm.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../llm/types.js';
import { ReviewWorkspace } from '../workspace/review-workspace.js';
import { Connection } from '../memory/connection.js';
import { MemoryManager } from '../memory/manager.js';
import type { TurnHandle } from '../memory/types.js';

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

/**
 * M-13.3 provenance invariants, straight from the database: every stored source quote is verbatim in
 * the cited turn and role; every active preference/decision has a verified user quote; no active item
 * rests on a source overlapping the evidence of a forgotten item.
 */
export function auditProvenance(dir: string): { illegal: number; active: number; complete: number; forgottenRebuilt: number } {
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'), { readonly: true });
  try {
    const illegal = (conn.db
      .prepare(
        `SELECT count(*) AS n FROM candidate_sources s LEFT JOIN turns t ON t.id = s.turn_id
          WHERE t.id IS NULL
             OR instr(CASE s.role WHEN 'user' THEN t.user_text ELSE coalesce(t.assistant_text, '') END, s.quote) = 0
             OR substr(CASE s.role WHEN 'user' THEN t.user_text ELSE t.assistant_text END, s.quote_start + 1, length(s.quote)) <> s.quote`,
      )
      .get() as { n: number }).n;
    const active = (conn.db
      .prepare("SELECT count(*) AS n FROM memory_items WHERE status = 'active' AND kind IN ('user_preference', 'project_decision')")
      .get() as { n: number }).n;
    const complete = (conn.db
      .prepare(
        `SELECT count(*) AS n FROM memory_items i
          WHERE i.status = 'active' AND i.kind IN ('user_preference', 'project_decision')
            AND EXISTS (SELECT 1 FROM memory_item_candidates mic JOIN candidate_sources s ON s.candidate_id = mic.candidate_id
                          JOIN turns t ON t.id = s.turn_id
                         WHERE mic.item_id = i.id AND s.role = 'user' AND instr(t.user_text, s.quote) > 0)`,
      )
      .get() as { n: number }).n;
    const forgottenRebuilt = (conn.db
      .prepare(
        `SELECT count(DISTINCT i.id) AS n FROM memory_items i
           JOIN memory_item_candidates mic ON mic.item_id = i.id
           JOIN candidate_sources s ON s.candidate_id = mic.candidate_id
          WHERE i.status = 'active' AND EXISTS (
            SELECT 1 FROM memory_items f
              JOIN memory_item_candidates fm ON fm.item_id = f.id
              JOIN candidate_sources fs ON fs.candidate_id = fm.candidate_id
             WHERE f.status = 'forgotten' AND f.is_current = 1 AND i.created_at >= f.updated_at
               AND fs.turn_id = s.turn_id AND fs.role = s.role
               AND fs.quote_start < s.quote_start + length(s.quote) AND s.quote_start < fs.quote_start + length(fs.quote))`,
      )
      .get() as { n: number }).n;
    return { illegal, active, complete, forgottenRebuilt };
  } finally {
    conn.close();
  }
}

/**
 * M-1.1 / M-4.1 probe: runs each repair flow in the case's repository with a recording model and counts
 * requests that carry anything of Memory (an item title, the compaction, the routing note, a Memory tool)
 * or any message besides the repair's own system prompt and user input.
 */
export async function repairLeaks(dir: string): Promise<number> {
  const memory = MemoryManager.open({ repoRoot: dir });
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'), { readonly: true });
  const secrets = [
    ...(conn.db.prepare('SELECT title FROM memory_items').all() as { title: string }[]).map((r) => r.title),
    ...(conn.db.prepare("SELECT compaction FROM threads WHERE compaction <> ''").all() as { compaction: string }[]).map((r) => r.compaction),
    ...(conn.db.prepare('SELECT user_text FROM turns').all() as { user_text: string }[]).map((r) => r.user_text),
    'Project memory',
  ].filter((t) => t.length >= 4);
  conn.close();
  // A 'react' answer too, so a flow that wrongly runs as ordinary is measured, not crashed.
  const llm = new ScriptedLlm().always('repair', { content: 'repair answer' }).always('react', { content: 'ordinary answer' });
  const agent = new Agent({ llm, memory, repoRoot: dir, workspace: new ReviewWorkspace(dir) });
  let leaks = 0;
  try {
    for (const intent of ['code_audit', 'patch_explain', 'patch_revise'] as const) {
      await agent.serve({ intent, fallback: null }, `repair probe for ${intent}`);
    }
    for (const request of llm.requests) {
      const text = JSON.stringify(request);
      const tools = (request.tools ?? []).map((t) => t.name);
      if (request.purpose !== 'repair') leaks += 1;
      if (request.messages.length !== 2 || request.messages[0]!.role !== 'system' || request.messages[1]!.role !== 'user') leaks += 1;
      if (tools.includes('memory_search') || tools.includes('memory_read')) leaks += 1;
      leaks += secrets.filter((secret) => text.includes(JSON.stringify(secret).slice(1, -1))).length;
    }
  } finally {
    await memory.close();
  }
  return leaks;
}

/** Searches every case's item titles in every other case's repository: any hit is a cross-repo leak. */
function crossRepoLeaks(repos: { id: string; dir: string; titles: string[] }[]): number {
  let leaks = 0;
  const probes = repos.filter((r) => r.titles.length > 0).slice(0, 12);
  for (const target of probes) {
    const memory = MemoryManager.open({ repoRoot: target.dir });
    const h = memory.beginTurn({ intent: 'general_chat', userText: '(cross-repo probe)' });
    for (const source of probes) {
      if (source === target) continue;
      for (const title of source.titles) {
        if (target.titles.includes(title)) continue;
        leaks += memory.search(h, title).filter((hit) => hit.title === title).length;
      }
    }
    memory.failTurn(h);
    void memory.close();
  }
  return leaks;
}

export interface LiveReport {
  cases: number;
  modelFailures: number;
  kept: number;
  refused: number;
  invariants: { illegalProvenance: number; provenanceCompleteness: number; activePreferencesAndDecisions: number };
}

/**
 * M-13.4: the optional live evaluation. The corpus turns go through the configured real model (never in
 * default CI: the caller checks AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1). The model's candidates are not scripted,
 * so only the invariants are judged, not the labels.
 */
export async function runCorpusLive(corpus: Corpus, env: NodeJS.ProcessEnv = process.env): Promise<LiveReport> {
  const config = loadConfig(env);
  if (!config.llm) throw new Error('the live evaluation needs a configured model (AUTOPATCH_LLM_API_KEY / AUTOPATCH_LLM_BASE_URL)');
  const llm = new OpenAiCompatibleProvider(config.llm);
  const report: LiveReport = { cases: 0, modelFailures: 0, kept: 0, refused: 0, invariants: { illegalProvenance: 0, provenanceCompleteness: 1, activePreferencesAndDecisions: 0 } };
  let complete = 0;
  for (const c of corpus.cases) {
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-live-${c.id}-`));
    const memory = MemoryManager.open({ repoRoot: dir, llm });
    try {
      for (const step of c.steps) {
        if ('say' in step) {
          const h = memory.beginTurn({ intent: 'general_chat', userText: step.say });
          memory.completeTurn(h, step.answer);
        } else if ('newThread' in step) {
          await memory.newThread();
        }
      }
      const result = await memory.processDue({ force: true });
      report.modelFailures += result.outcomes.filter((o) => o.outcome === 'retry').length;
      const status = memory.status();
      report.refused += status.filteredCandidates.total;
      report.kept += status.items.user_preference + status.items.project_decision + status.items.discussion_context;
    } finally {
      await memory.close();
    }
    const audit = auditProvenance(dir);
    report.invariants.illegalProvenance += audit.illegal;
    report.invariants.activePreferencesAndDecisions += audit.active;
    complete += audit.complete;
    report.cases += 1;
    rmSync(dir, { recursive: true, force: true });
  }
  const active = report.invariants.activePreferencesAndDecisions;
  report.invariants.provenanceCompleteness = active === 0 ? 1 : complete / active;
  return report;
}
