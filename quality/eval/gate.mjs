// The speech-act gate corpus (M-5.6, M-13.2): labelled candidates, each run through the public Memory API
// with a scripted model, so what is measured is the program's own decision to keep or refuse.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { MemoryManager, ScriptedLlm } from '../../dist/index.js';

const KINDS = { p: 'user_preference', d: 'project_decision', c: 'discussion_context' };

const Options = z.strictObject({
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
});

const Item = z.union([
  z.tuple([z.enum(['c', 'h']), z.enum(['p', 'd', 'c']), z.string().min(1), z.string().min(1)]),
  z.tuple([z.enum(['c', 'h']), z.enum(['p', 'd', 'c']), z.string().min(1), z.string().min(1), Options]),
]);

const GateCorpus = z.strictObject({
  version: z.number().int(),
  description: z.string(),
  /** category → what it covers */
  categories: z.record(z.string(), z.string()),
  items: z.record(z.string(), z.array(Item)),
});

/** 'zh', 'en' or 'mixed', from the user text: Chinese characters with three or more Latin words is mixed. */
export function languageOf(text) {
  const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const latin = (text.match(/[A-Za-z][A-Za-z'-]+/g) ?? []).length;
  if (han >= 2) return latin >= 3 ? 'mixed' : 'zh';
  return 'en';
}

/** Loads and flattens the corpus: one entry per labelled candidate, with its id, tier and language. */
export function loadGateCorpus(path) {
  const corpus = GateCorpus.parse(JSON.parse(readFileSync(path, 'utf8')));
  const items = [];
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
  return { version: corpus.version, categories: corpus.categories, items };
}

const clipTitle = (text) => (text.length <= 150 ? text : `${text.slice(0, 149)}…`);

/** The candidate the scripted model proposes for an item. */
function candidateOf(item, turns) {
  const o = item.options;
  const quote = o.quote ?? item.text;
  const sources = o.assistantOnly
    ? [{ turn_id: turns.main, role: 'assistant', quote: o.answer ?? '' }]
    : [{ turn_id: turns.main, role: 'user', quote }];
  if (o.proposal !== undefined) sources.push({ turn_id: turns.proposal, role: 'assistant', quote: o.proposalQuote ?? o.proposal });
  const title =
    o.title ?? clipTitle(o.assistantOnly ? (o.answer ?? '') : (o.proposalQuote ?? (o.proposal !== undefined ? o.proposal : quote)));
  return { kind: item.kind, title, content: title, aliases: [], sources };
}

function consolidateAll(request) {
  const payload = JSON.parse(request.messages[1].content);
  const operations = payload.candidates.map((c) => ({
    operation: 'create',
    candidate_ids: [c.candidate_id],
    target_id: null,
    title: c.title,
    content: c.title,
    synopsis: '',
    aliases: [],
    keywords: [],
  }));
  return { content: JSON.stringify({ operations }) };
}

/**
 * Runs every item through the public API: its turns are admitted and completed, the scripted model proposes
 * its one candidate, and the outcome is read back (kept, or refused with a reason from `refused()`).
 */
export async function runGateCorpus(corpus) {
  const results = [];
  const byCategory = new Map();
  for (const item of corpus.items) {
    const list = byCategory.get(item.category) ?? [];
    list.push(item);
    byCategory.set(item.category, list);
  }
  for (const [category, items] of byCategory) {
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-gate-${category}-`));
    let current = null;
    const llm = new ScriptedLlm()
      .always('memory_extraction', () => ({ content: JSON.stringify({ thread_compaction: '', candidates: current ? [current] : [] }) }))
      .always('memory_consolidation', consolidateAll);
    const memory = MemoryManager.open({ repoRoot: dir, llm });
    try {
      for (const item of items) {
        const o = item.options;
        const zh = item.language !== 'en';
        const turns = {};
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
        const before = memory.refused({ limit: 1 })[0]?.candidateId;
        const processed = await memory.processDue({ force: true });
        const extraction = processed.outcomes.filter((x) => x.kind === 'extraction');
        if (extraction.length !== 1 || extraction[0].outcome === 'retry' || extraction[0].outcome === 'fenced') {
          throw new Error(`gate corpus ${item.id}: extraction did not run as one batch (${JSON.stringify(extraction)})`);
        }
        const latest = memory.refused({ limit: 1 })[0];
        const refusal = latest && latest.candidateId !== before ? latest : null;
        const accepted = extraction[0].outcome === 'succeeded' && refusal === null;
        results.push({ ...item, accepted, reason: refusal?.reason ?? null });
      }
    } finally {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { version: corpus.version, results, figures: figuresOf(results) };
}

function tally(results) {
  const t = { n: 0, correct: 0, falseAccepts: 0, falseRefusals: 0, wrongReason: 0, accuracy: 1 };
  for (const r of results) {
    t.n += 1;
    const wantAccept = r.expect === 'accept';
    if (wantAccept === r.accepted) t.correct += 1;
    else if (r.accepted) t.falseAccepts += 1;
    else t.falseRefusals += 1;
    if (!wantAccept && !r.accepted && r.expect !== 'reject' && r.reason !== r.expect) t.wrongReason += 1;
  }
  t.accuracy = t.n === 0 ? 1 : t.correct / t.n;
  return t;
}

function groupBy(results, key) {
  const groups = {};
  for (const r of results) (groups[r[key]] ??= []).push(r);
  return Object.fromEntries(
    Object.entries(groups)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, list]) => [k, tally(list)]),
  );
}

/** Accuracy, false accepts and false refusals: overall, per tier, per category, per language, per category and tier. */
export function figuresOf(results) {
  const byCategoryTier = {};
  for (const [category, list] of Object.entries(groupRaw(results, 'category'))) {
    byCategoryTier[category] = groupBy(list, 'tier');
  }
  return {
    overall: tally(results),
    byTier: groupBy(results, 'tier'),
    byCategory: groupBy(results, 'category'),
    byLanguage: groupBy(results, 'language'),
    byLanguageTier: Object.fromEntries(Object.entries(groupRaw(results, 'language')).map(([k, list]) => [k, groupBy(list, 'tier')])),
    byCategoryTier,
  };
}

function groupRaw(results, key) {
  const groups = {};
  for (const r of results) (groups[r[key]] ??= []).push(r);
  return groups;
}

/**
 * The per-category figures the default test suite holds the gate to: for every category and tier, how many
 * items it gets right at least and how many it may wrongly accept at most. Recorded by
 * `npm run eval:quality -- --write-baseline` after a deliberate change.
 */
export function baselineOf(figures) {
  const categories = {};
  for (const [category, tiers] of Object.entries(figures.byCategoryTier)) {
    categories[category] = Object.fromEntries(
      Object.entries(tiers).map(([tier, t]) => [tier, { n: t.n, minCorrect: t.correct, maxFalseAccepts: t.falseAccepts }]),
    );
  }
  return { categories };
}
