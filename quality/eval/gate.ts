// The speech-act gate corpus (M-5.6, M-5.7, M-13.2): labelled candidates, each run through the public Memory
// API of src/ with a scripted model, so what is measured is the program's own verdict — accept, suggest or
// refuse. Used by the default test suite (test/quality/gate-corpus.test.ts) and by `npm run eval:gate`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type MemoryKind, MemoryManager, ScriptedLlm } from '../../src/index.js';
import { consolidateWith } from '../../test/helpers/scripted.js';

const KINDS = { p: 'user_preference', d: 'project_decision', c: 'discussion_context' } as const;

const Options = z.object({
  /** The quoted part of the user text (default: all of it). */
  quote: z.string().optional(),
  /** The assistant answer of the turn before, holding the proposal a confirmation binds to. */
  proposal: z.string().optional(),
  /** The quoted part of the proposal (default: all of it). */
  proposalQuote: z.string().optional(),
  /** The user text of the turn right after. */
  next: z.string().optional(),
  /** The assistant answer of the turn itself. */
  answer: z.string().optional(),
  /** Cite only the assistant answer (an assistant-only claim). */
  assistantOnly: z.literal(true).optional(),
  /** The candidate's title, when it should differ from the quote. */
  title: z.string().optional(),
  /** The candidate's content, when it should differ from its title. */
  content: z.string().optional(),
});

const Item = z.union([
  z.tuple([z.enum(['c', 'h']), z.enum(['p', 'd', 'c']), z.string().min(1), z.string().min(1)]),
  z.tuple([z.enum(['c', 'h']), z.enum(['p', 'd', 'c']), z.string().min(1), z.string().min(1), Options]),
]);

const GateCorpusFile = z.object({
  version: z.number().int().optional(),
  description: z.string().optional(),
  /** category → what it covers */
  categories: z.record(z.string(), z.string()),
  items: z.record(z.string(), z.array(Item)),
});

export type Language = 'zh' | 'en' | 'mixed';
export type Tier = 'clear' | 'hard';
/** What an item expects: 'accept', 'suggest', 'reject', or the refusal reason (a reject). */
export type Expected = string;
export type Outcome = 'accept' | 'suggest' | 'refuse';

export interface GateItem {
  id: string;
  category: string;
  tier: Tier;
  kind: MemoryKind;
  text: string;
  expect: Expected;
  options: z.infer<typeof Options>;
  language: Language;
}

export interface GateResult extends GateItem {
  outcome: Outcome;
  reason: string | null;
}

export interface GateCorpus {
  version: number;
  categories: Record<string, string>;
  items: GateItem[];
}

/** 'zh', 'en' or 'mixed', from the user text: Chinese characters with three or more Latin words is mixed. */
export function languageOf(text: string): Language {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const latin = (text.match(/[A-Za-z][A-Za-z'-]+/g) ?? []).length;
  if (han >= 2) return latin >= 3 ? 'mixed' : 'zh';
  return 'en';
}

/** The label an expectation stands for: accept, suggest, or reject (a refusal reason is a reject). */
export const labelOf = (expect: Expected): 'accept' | 'suggest' | 'reject' =>
  expect === 'accept' || expect === 'suggest' ? expect : 'reject';

/** Loads and flattens a corpus file: one entry per labelled candidate, with its id, tier and language. */
export function loadGateCorpus(path: string): GateCorpus {
  const corpus = GateCorpusFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  const items: GateItem[] = [];
  for (const [category, list] of Object.entries(corpus.items)) {
    if (!(category in corpus.categories)) throw new Error(`gate corpus: category '${category}' is not described`);
    list.forEach(([tier, kind, text, expect, options = {}], index) => {
      items.push({
        id: `${category}-${index + 1}`,
        category,
        tier: tier === 'c' ? 'clear' : 'hard',
        kind: KINDS[kind],
        text,
        expect,
        options,
        language: languageOf(text),
      });
    });
  }
  return { version: corpus.version ?? 1, categories: corpus.categories, items };
}

const clipTitle = (text: string): string => (text.length <= 150 ? text : `${text.slice(0, 149)}…`);

/** The candidate the scripted model proposes for an item. */
function candidateOf(item: GateItem, turns: { main: string; proposal?: string }): object {
  const o = item.options;
  const quote = o.quote ?? item.text;
  const sources = o.assistantOnly
    ? [{ turn_id: turns.main, role: 'assistant', quote: o.answer ?? '' }]
    : [{ turn_id: turns.main, role: 'user', quote }];
  if (o.proposal !== undefined) sources.push({ turn_id: turns.proposal!, role: 'assistant', quote: o.proposalQuote ?? o.proposal });
  const title = o.title ?? clipTitle(o.assistantOnly ? (o.answer ?? '') : (o.proposalQuote ?? o.proposal ?? quote));
  return { kind: item.kind, title, content: o.content ?? title, aliases: [], sources };
}

/**
 * Runs every item through the public API: its turns are admitted and completed, the scripted model proposes
 * its one candidate, and the outcome is read back: a suggestion (`suggestions()`), a refusal (`refused()`),
 * or accepted.
 */
export async function runGateCorpus(corpus: GateCorpus): Promise<{ version: number; results: GateResult[]; figures: GateFigures }> {
  const results: GateResult[] = [];
  const byCategory = new Map<string, GateItem[]>();
  for (const item of corpus.items) byCategory.set(item.category, [...(byCategory.get(item.category) ?? []), item]);
  for (const [category, items] of byCategory) {
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-gate-${category.replace(/[^\w-]/gu, '_')}-`));
    let current: object | null = null;
    const llm = new ScriptedLlm()
      .always('memory_extraction', () => ({ content: JSON.stringify({ thread_compaction: '', candidates: current ? [current] : [] }) }))
      .always('memory_consolidation', consolidateWith());
    const memory = MemoryManager.open({ repoRoot: dir, llm });
    try {
      for (const item of items) {
        const o = item.options;
        const zh = item.language !== 'en';
        const turns: { main: string; proposal?: string } = { main: '' };
        if (o.proposal !== undefined) {
          const h = memory.beginTurn({ intent: 'general_chat', userText: zh ? '你怎么建议？' : 'What would you suggest?' });
          memory.completeTurn(h, o.proposal);
          turns.proposal = h.turnId;
        }
        const h = memory.beginTurn({ intent: 'general_chat', userText: item.text });
        memory.completeTurn(h, o.answer ?? (zh ? '好的。' : 'OK.'));
        turns.main = h.turnId;
        if (o.next !== undefined) {
          const n = memory.beginTurn({ intent: 'general_chat', userText: o.next });
          memory.completeTurn(n, zh ? '好的。' : 'OK.');
        }
        current = candidateOf(item, turns);
        const filteredBefore = memory.status().filteredCandidates;
        const refusedBefore = memory.refused({ limit: 1 })[0]?.candidateId;
        const suggestedBefore = memory.suggestions({ limit: 1 })[0]?.candidateId;
        const processed = await memory.processDue({ force: true });
        const extraction = processed.outcomes.filter((x) => x.kind === 'extraction');
        if (extraction.length !== 1 || extraction[0]!.outcome === 'retry' || extraction[0]!.outcome === 'fenced') {
          throw new Error(`gate corpus ${item.id}: extraction did not run as one batch (${JSON.stringify(extraction)})`);
        }
        const refusal = memory.refused({ limit: 1 })[0];
        const suggestion = memory.suggestions({ limit: 1 })[0];
        let outcome: Outcome = 'accept';
        let reason: string | null = null;
        if (suggestion && suggestion.candidateId !== suggestedBefore) {
          outcome = 'suggest';
          reason = suggestion.reason;
        } else if (refusal && refusal.candidateId !== refusedBefore) {
          outcome = 'refuse';
          reason = refusal.reason;
        } else if (extraction[0]!.outcome !== 'succeeded') {
          outcome = 'refuse';
        } else {
          // Refused at consolidation (M-6.4: the title or content says more than the quotes).
          const after = memory.status().filteredCandidates;
          if (after.total > filteredBefore.total) {
            outcome = 'refuse';
            reason = Object.keys(after.byReason).find((k) => (after.byReason[k] ?? 0) > (filteredBefore.byReason[k] ?? 0)) ?? null;
          }
        }
        results.push({ ...item, outcome, reason });
      }
    } finally {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { version: corpus.version, results, figures: figuresOf(results) };
}

/**
 * The figures of a group of results (M-5.7). An accept-labelled item is right only when accepted; a
 * reject-labelled one when not accepted (refused or suggested); a suggest-labelled one when suggested or
 * (less good) accepted. A silent false accept is a reject-labelled item accepted; reachable are the accept-
 * and suggest-labelled items accepted or suggested.
 */
export interface Tally {
  n: number;
  correct: number;
  accuracy: number;
  /** Reject-labelled items accepted. */
  falseAccepts: number;
  /** Accept-labelled items refused. */
  falseRefusals: number;
  /** Accept-labelled items suggested. */
  heldBack: number;
  /** Suggested items, of any label. */
  suggested: number;
  suggestRate: number;
  /** Accept- and suggest-labelled items. */
  valid: number;
  /** Of those, accepted or suggested. */
  reachable: number;
  reachableShare: number;
  /** Refusals of reject-labelled items for another reason than the labelled one. */
  wrongReason: number;
}

function tally(results: readonly GateResult[]): Tally {
  const t: Tally = {
    n: 0,
    correct: 0,
    accuracy: 1,
    falseAccepts: 0,
    falseRefusals: 0,
    heldBack: 0,
    suggested: 0,
    suggestRate: 0,
    valid: 0,
    reachable: 0,
    reachableShare: 1,
    wrongReason: 0,
  };
  for (const r of results) {
    t.n += 1;
    const label = labelOf(r.expect);
    if (r.outcome === 'suggest') t.suggested += 1;
    if (label === 'accept') {
      if (r.outcome === 'accept') t.correct += 1;
      else if (r.outcome === 'suggest') t.heldBack += 1;
      else t.falseRefusals += 1;
    } else if (label === 'suggest') {
      if (r.outcome !== 'refuse') t.correct += 1;
    } else if (r.outcome === 'accept') t.falseAccepts += 1;
    else {
      t.correct += 1;
      if (r.outcome === 'refuse' && r.expect !== 'reject' && r.reason !== r.expect) t.wrongReason += 1;
    }
    if (label !== 'reject') {
      t.valid += 1;
      if (r.outcome !== 'refuse') t.reachable += 1;
    }
  }
  t.accuracy = t.n === 0 ? 1 : t.correct / t.n;
  t.suggestRate = t.n === 0 ? 0 : t.suggested / t.n;
  t.reachableShare = t.valid === 0 ? 1 : t.reachable / t.valid;
  return t;
}

function groupRaw<K extends keyof GateResult>(results: readonly GateResult[], key: K): Record<string, GateResult[]> {
  const groups: Record<string, GateResult[]> = {};
  for (const r of results) (groups[String(r[key])] ??= []).push(r);
  return groups;
}

function groupBy<K extends keyof GateResult>(results: readonly GateResult[], key: K): Record<string, Tally> {
  return Object.fromEntries(
    Object.entries(groupRaw(results, key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, list]) => [k, tally(list)]),
  );
}

export interface GateFigures {
  overall: Tally;
  byTier: Record<string, Tally>;
  byCategory: Record<string, Tally>;
  byLanguage: Record<string, Tally>;
  byLanguageTier: Record<string, Record<string, Tally>>;
  byCategoryTier: Record<string, Record<string, Tally>>;
}

/** The figures overall, per tier, per category, per language, per language and tier, per category and tier. */
export function figuresOf(results: readonly GateResult[]): GateFigures {
  const nested = (key: 'category' | 'language'): Record<string, Record<string, Tally>> =>
    Object.fromEntries(Object.entries(groupRaw(results, key)).map(([k, list]) => [k, groupBy(list, 'tier')]));
  return {
    overall: tally(results),
    byTier: groupBy(results, 'tier'),
    byCategory: groupBy(results, 'category'),
    byLanguage: groupBy(results, 'language'),
    byLanguageTier: nested('language'),
    byCategoryTier: nested('category'),
  };
}

export interface GateBaseline {
  categories: Record<string, Record<string, { n: number; minCorrect: number; maxFalseAccepts: number; minReachable: number }>>;
}

/**
 * The per-category figures the default test suite holds the gate to: for every category and tier, how many
 * items it gets right at least, how many it may wrongly accept at most and how many valid ones stay
 * reachable at least. Recorded by `npm run eval:gate -- --write-baseline` after a deliberate change.
 */
export function baselineOf(figures: GateFigures): GateBaseline {
  const categories: GateBaseline['categories'] = {};
  for (const [category, tiers] of Object.entries(figures.byCategoryTier)) {
    categories[category] = Object.fromEntries(
      Object.entries(tiers).map(([tier, t]) => [
        tier,
        { n: t.n, minCorrect: t.correct, maxFalseAccepts: t.falseAccepts, minReachable: t.reachable },
      ]),
    );
  }
  return { categories };
}

/** Where the figures fall below a baseline ([] when they do not). */
export function regressionsOf(figures: GateFigures, baseline: GateBaseline): string[] {
  const regressions: string[] = [];
  const seen = Object.keys(figures.byCategoryTier).sort().join(',');
  if (seen !== Object.keys(baseline.categories).sort().join(',')) regressions.push('categories differ from the baseline');
  for (const [category, tiers] of Object.entries(baseline.categories)) {
    for (const [tier, b] of Object.entries(tiers)) {
      const t = figures.byCategoryTier[category]?.[tier];
      if (!t || t.n !== b.n) regressions.push(`${category}/${tier}: ${t?.n ?? 0} items, baseline ${b.n} (write the baseline again)`);
      else if (t.correct < b.minCorrect || t.falseAccepts > b.maxFalseAccepts || t.reachable < b.minReachable) {
        regressions.push(
          `${category}/${tier}: ${t.correct}/${t.n} right, ${t.falseAccepts} false accepts, ${t.reachable} reachable; ` +
            `baseline ${b.minCorrect}, ${b.maxFalseAccepts}, ${b.minReachable}`,
        );
      }
    }
  }
  return regressions;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The aggregate figures as a table, without one sentence of the corpus (first contact prints only this). */
export function formatFigures(title: string, figures: GateFigures): string {
  const lines = [title, '', '| group | n | accuracy | silent false accepts | false refusals | held back | suggested | reachable |'];
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  const row = (name: string, t: Tally): string =>
    `| ${name} | ${t.n} | ${pct(t.accuracy)} | ${t.falseAccepts} | ${t.falseRefusals} | ${t.heldBack} | ${t.suggested} (${pct(
      t.suggestRate,
    )}) | ${t.reachable}/${t.valid} (${pct(t.reachableShare)}) |`;
  lines.push(row('all', figures.overall));
  for (const [k, t] of Object.entries(figures.byTier)) lines.push(row(`tier ${k}`, t));
  for (const [k, t] of Object.entries(figures.byLanguage)) lines.push(row(`language ${k}`, t));
  for (const [k, tiers] of Object.entries(figures.byLanguageTier))
    for (const [tier, t] of Object.entries(tiers)) lines.push(row(`${k} ${tier}`, t));
  for (const [k, t] of Object.entries(figures.byCategory)) lines.push(row(`category ${k}`, t));
  return lines.join('\n');
}

/** One line per wrong verdict, with its sentence: only for a corpus already measured on first contact. */
export function formatFailures(results: readonly GateResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    const label = labelOf(r.expect);
    const wrong =
      (label === 'accept' && r.outcome !== 'accept') ||
      (label === 'reject' && r.outcome === 'accept') ||
      (label === 'suggest' && r.outcome === 'refuse');
    if (!wrong && r.outcome !== 'suggest') continue;
    out.push(
      `  ${wrong ? '✗' : '~'} ${r.id} [${r.tier}, ${r.language}, ${r.kind}] expected ${r.expect}, got ${r.outcome}${r.reason ? ` (${r.reason})` : ''}: ${JSON.stringify(r.options.quote ?? r.text)}`,
    );
  }
  return out.join('\n');
}
