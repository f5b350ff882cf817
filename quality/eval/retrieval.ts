// The retrieval corpus (issue 23, M-7.7, M-8.3) and its runner. Every memory of a project is said as a user
// turn; a scripted model answers extraction and consolidation with the corpus's fields, so the memories go
// through the real pipeline (gate, evidence checks, term writing) into a real SQLite file in a temp dir. The
// queries then go through the public API: `search` for ranked hits, `beginTurn` + `routingItems` for what
// routing shows for a request of that text. The API is passed in (the test suite and `npm run eval:quality`
// both pass that of src/).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import type { ChatRequest, MemoryManager, ScriptedLlm, TurnHandle } from '../../src/index.js';

/** The part of the public API the retrieval corpus runs on. */
export interface RetrievalApi {
  MemoryManager: typeof MemoryManager;
  ScriptedLlm: typeof ScriptedLlm;
}

const Memory = z.object({
  key: z.string(),
  kind: z.enum(['user_preference', 'project_decision', 'discussion_context']),
  say: z.string(),
  quote: z.string(),
  answer: z.string().default('好的 / OK'),
  title: z.string(),
  content: z.string(),
  synopsis: z.string().default(''),
  aliases: z.array(z.string()).default([]),
  keywords: z.array(z.string()).default([]),
});

export const QUERY_TYPES = ['keyword', 'phrase', 'cross_lingual', 'synonym', 'variant', 'typo', 'content_only', 'no_answer'] as const;

const Query = z.object({
  q: z.string(),
  type: z.enum(QUERY_TYPES),
  lang: z.enum(['zh', 'en', 'mixed']),
  relevant: z.array(z.string()),
});

const Project = z.object({
  id: z.string(),
  description: z.string().default(''),
  memories: z.array(Memory),
  queries: z.array(Query),
});

const RetrievalCorpus = z.object({
  version: z.number().int(),
  description: z.string().default(''),
  part: z.string().default('dev'),
  projects: z.array(Project),
});

export type RetrievalCorpus = z.infer<typeof RetrievalCorpus>;
export type RetrievalProject = z.infer<typeof Project>;
type CorpusMemory = z.infer<typeof Memory>;
type Query = z.infer<typeof Query>;

/** One project's Memory built through the pipeline (see `buildProject`). */
export interface BuiltProject {
  memory: MemoryManager;
  handle: TurnHandle;
  /** The corpus key of every stored item, by item id. */
  keyOf: Map<string, string>;
  missing: { key: string; reason: string }[];
  clock: () => number;
}

/** The figures of one group of queries (see `figures`). */
export interface RetrievalFigures {
  n: number;
  answerable: number;
  recallAt5: number | null;
  mrr: number | null;
  top1: number | null;
  precision: number | null;
  emptyAnswerable: number | null;
  noAnswer: number;
  falseHits: number | null;
  reach: number | null;
}

export interface FigureSet {
  all: RetrievalFigures;
  byType: Record<string, RetrievalFigures>;
  byLang: Record<string, RetrievalFigures>;
}

/** One query's outcome (`runRetrieval` with `details`). */
export interface QueryDetail extends Query {
  project: string;
  keys: string[];
  matches: string[];
  routed: boolean;
  bm25: string[];
}

export interface RetrievalReport {
  part: string;
  version: number;
  ours: FigureSet;
  bm25: FigureSet;
  missing: { project: string; key: string; reason: string }[];
  unanswerable: number;
  details: QueryDetail[];
}

interface ExtractionPayload {
  turns: { turn_id: string; user: string }[];
}
interface ConsolidationPayload {
  candidates: { candidate_id: string; kind: string; title: string; content: string }[];
}

export function loadRetrievalCorpus(path: string): RetrievalCorpus {
  return RetrievalCorpus.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * Builds one project's Memory through the pipeline. Returns the open manager, a handle for searches and the
 * corpus key of every stored item (by item id); memories the program refused are listed with their reason.
 */
export async function buildProject(project: RetrievalProject, api: RetrievalApi, dir: string): Promise<BuiltProject> {
  const bySay = new Map(project.memories.map((m) => [m.say, m]));
  const byTitle = new Map(project.memories.map((m) => [`${m.kind}\u0000${m.title}`, m]));
  const llm = new api.ScriptedLlm()
    .always('memory_extraction', (request: ChatRequest) => {
      const payload = JSON.parse(request.messages[1]!.content) as ExtractionPayload;
      const candidates = payload.turns.flatMap((t) => {
        const m = bySay.get(t.user);
        if (!m) return [];
        return [
          {
            kind: m.kind,
            title: m.title,
            content: m.content,
            aliases: m.aliases,
            sources: [{ turn_id: t.turn_id, role: 'user', quote: m.quote }],
          },
        ];
      });
      return { content: JSON.stringify({ thread_compaction: 'The user and the assistant talk about this project.', candidates }) };
    })
    .always('memory_consolidation', (request: ChatRequest) => {
      const payload = JSON.parse(request.messages[1]!.content) as ConsolidationPayload;
      const operations = payload.candidates.map((c) => {
        const m = byTitle.get(`${c.kind}\u0000${c.title}`);
        if (!m) return { operation: 'reject', candidate_ids: [c.candidate_id], target_id: null, title: c.title, content: c.content };
        return {
          operation: 'create',
          candidate_ids: [c.candidate_id],
          target_id: null,
          title: m.title,
          content: m.content,
          synopsis: m.synopsis,
          aliases: m.aliases,
          keywords: m.keywords,
        };
      });
      return { content: JSON.stringify({ operations }) };
    });
  let clock = Date.UTC(2026, 10, 1);
  const memory = api.MemoryManager.open({ repoRoot: dir, llm, now: () => clock });
  for (const m of project.memories) {
    const h = memory.beginTurn({ intent: 'general_chat', userText: m.say });
    memory.completeTurn(h, m.answer);
    clock += 60_000;
    await memory.processDue({ force: true });
  }
  await memory.processDue({ force: true });
  const keyOf = new Map<string, string>();
  for (const item of memory.list()) {
    const m = byTitle.get(`${item.kind}\u0000${item.title}`);
    if (m) keyOf.set(item.id, m.key);
  }
  const stored = new Set(keyOf.values());
  const refusedByTitle = new Map(memory.refused({ limit: 1000 }).map((r) => [r.title, r.reason]));
  const missing = project.memories
    .filter((m) => !stored.has(m.key))
    .map((m) => ({ key: m.key, reason: refusedByTitle.get(m.title) ?? 'not stored' }));
  const handle = memory.beginTurn({ intent: 'general_chat', userText: 'retrieval evaluation' });
  return { memory, handle, keyOf, missing, clock: () => (clock += 1000) };
}

function words(text: string): string[] {
  const out: string[] = [];
  for (const s of new Intl.Segmenter('zh', { granularity: 'word' }).segment(text.normalize('NFKC').toLowerCase())) {
    if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

/** Plain BM25 over the same memories (MiniSearch, Intl.Segmenter words): the baseline the ranking must beat. */
function bm25Index(memories: CorpusMemory[]): (q: string) => string[] {
  const index = new MiniSearch<Record<string, string>>({
    fields: ['title', 'content', 'synopsis', 'aliases', 'keywords'],
    idField: 'key',
    tokenize: words,
    processTerm: (t) => t,
  });
  index.addAll(memories.map((m) => ({ ...m, aliases: m.aliases.join(' '), keywords: m.keywords.join(' ') })));
  return (q) =>
    index
      .search(q, { tokenize: words })
      .slice(0, 5)
      .map((r) => String(r.id));
}

interface Tally {
  n: number;
  answerable: number;
  recall: number;
  rr: number;
  top1: number;
  returned: number;
  relevantReturned: number;
  empty: number;
  noAnswer: number;
  falseHits: number;
  reach: number;
}

function emptyTally(): Tally {
  return {
    n: 0,
    answerable: 0,
    recall: 0,
    rr: 0,
    top1: 0,
    returned: 0,
    relevantReturned: 0,
    empty: 0,
    noAnswer: 0,
    falseHits: 0,
    reach: 0,
  };
}

function add(tally: Tally, query: Query, keys: string[], reached: boolean): void {
  tally.n += 1;
  if (query.relevant.length === 0) {
    tally.noAnswer += 1;
    if (keys.length > 0) tally.falseHits += 1;
    return;
  }
  const relevant = new Set(query.relevant);
  tally.answerable += 1;
  tally.returned += keys.length;
  tally.relevantReturned += keys.filter((k) => relevant.has(k)).length;
  tally.recall += keys.slice(0, 5).filter((k) => relevant.has(k)).length / relevant.size;
  const first = keys.findIndex((k) => relevant.has(k));
  if (first >= 0) tally.rr += 1 / (first + 1);
  if (first === 0) tally.top1 += 1;
  if (keys.length === 0) tally.empty += 1;
  if (reached) tally.reach += 1;
}

/** The figures of a tally: recall@5, MRR, precision of returned hits, false hits on no-answer queries. */
export function figures(t: Tally): RetrievalFigures {
  const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
  return {
    n: t.n,
    answerable: t.answerable,
    recallAt5: ratio(t.recall, t.answerable),
    mrr: ratio(t.rr, t.answerable),
    top1: ratio(t.top1, t.answerable - t.empty),
    precision: ratio(t.relevantReturned, t.returned),
    emptyAnswerable: ratio(t.empty, t.answerable),
    noAnswer: t.noAnswer,
    falseHits: ratio(t.falseHits, t.noAnswer),
    reach: ratio(t.reach, t.answerable),
  };
}

class Tallies {
  readonly all = emptyTally();
  readonly byType: Record<string, Tally> = {};
  readonly byLang: Record<string, Tally> = {};

  add(query: Query, keys: string[], reached: boolean): void {
    add(this.all, query, keys, reached);
    add((this.byType[query.type] ??= emptyTally()), query, keys, reached);
    add((this.byLang[query.lang] ??= emptyTally()), query, keys, reached);
  }
  figures(): FigureSet {
    const map = (o: Record<string, Tally>): Record<string, RetrievalFigures> =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, figures(v)]));
    return { all: figures(this.all), byType: map(this.byType), byLang: map(this.byLang) };
  }
}

/**
 * Runs a corpus part. A part whose projects have no memories of their own (the held-back queries of a dev
 * project) is run against that project of `base`. Returns the figures for Memory search and for the BM25
 * baseline, the memories the program did not store, and (with `details`) every query's outcome.
 */
export async function runRetrieval(
  corpus: RetrievalCorpus,
  api: RetrievalApi,
  options: { base?: RetrievalCorpus; details?: boolean } = {},
): Promise<RetrievalReport> {
  const ours = new Tallies();
  const bm25 = new Tallies();
  const missing: RetrievalReport['missing'] = [];
  const details: QueryDetail[] = [];
  let unanswerable = 0;
  for (const project of corpus.projects) {
    const memories =
      project.memories.length > 0 ? project.memories : (options.base?.projects.find((p) => p.id === project.id)?.memories ?? []);
    if (memories.length === 0) throw new Error(`project ${project.id} has no memories (pass the dev corpus as base)`);
    const source = { ...project, memories };
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-retrieval-${project.id}-`));
    try {
      const built = await buildProject(source, api, dir);
      for (const m of built.missing) missing.push({ project: project.id, ...m });
      const stored = new Set(built.keyOf.values());
      const baseline = bm25Index(memories.filter((m) => stored.has(m.key)));
      for (const original of project.queries) {
        // Retrieval is measured on what the pipeline stored: a relevant memory the gate refused is not asked for,
        // and a query left with no stored relevant memory is counted apart.
        const query = { ...original, relevant: original.relevant.filter((k) => stored.has(k)) };
        if (original.relevant.length > 0 && query.relevant.length === 0) {
          unanswerable += 1;
          continue;
        }
        const hits = built.memory.search(built.handle, query.q);
        const keys = hits.map((h) => built.keyOf.get(h.id) ?? `?${h.id}`);
        let reached = false;
        let routed: (string | undefined)[] = [];
        if (query.relevant.length > 0) {
          const turn = built.memory.beginTurn({ intent: 'general_chat', userText: query.q });
          routed = built.memory.routingItems(turn).map((r) => built.keyOf.get(r.id));
          built.memory.failTurn(turn);
          reached = query.relevant.some((k) => routed.includes(k) || keys.includes(k));
        }
        ours.add(query, keys, reached);
        const bmKeys = baseline(query.q);
        bm25.add(query, bmKeys, false);
        if (options.details)
          details.push({ project: project.id, ...query, keys, matches: hits.map((h) => h.match), routed: reached, bm25: bmKeys });
      }
      built.memory.failTurn(built.handle);
      await built.memory.close({ drain: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { part: corpus.part, version: corpus.version, ours: ours.figures(), bm25: bm25.figures(), missing, unanswerable, details };
}

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}`);

/** A report as Markdown tables (figures only: no query text). */
export function formatRetrieval(report: RetrievalReport, label: string): string {
  const lines = [`\n${label} (part ${report.part}, v${report.version})`];
  if (report.missing.length > 0) {
    lines.push(
      `  memories the pipeline did not store: ${report.missing.length}; queries left without a stored relevant memory (not counted): ${report.unanswerable}`,
    );
  }
  const head =
    '| group | n | recall@5 | MRR | top hit relevant | precision | answerable → [] | no-answer | false hits | routing or search | BM25 recall@5 | BM25 MRR | BM25 precision | BM25 false hits |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const row = (name: string, f: RetrievalFigures, b: RetrievalFigures): string =>
    `| ${name} | ${f.n} | ${pct(f.recallAt5)} | ${pct(f.mrr)} | ${pct(f.top1)} | ${pct(f.precision)} | ${pct(f.emptyAnswerable)} | ${f.noAnswer} | ${pct(f.falseHits)} | ${pct(f.reach)} | ${pct(b.recallAt5)} | ${pct(b.mrr)} | ${pct(b.precision)} | ${pct(b.falseHits)} |`;
  lines.push(head, rule, row('all', report.ours.all, report.bm25.all));
  for (const type of QUERY_TYPES) {
    const f = report.ours.byType[type];
    if (f) lines.push(row(type, f, report.bm25.byType[type]!));
  }
  for (const lang of ['zh', 'en', 'mixed']) {
    const f = report.ours.byLang[lang];
    if (f) lines.push(row(lang, f, report.bm25.byLang[lang]!));
  }
  return lines.join('\n');
}
