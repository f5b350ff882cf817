import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import { QUERY_TYPES, loadRetrievalCorpus, runRetrieval } from '../../quality/eval/retrieval.js';

const corpus = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.v1.json', import.meta.url)));
// Written apart from the rules and first run after them: the generalization check (see the README).
const heldBack = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback.v1.json', import.meta.url)));
// A second set written apart, same projects and memories, read after its first run (see the README).
const heldBack2 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback2.v1.json', import.meta.url)));
// A third set written apart, same projects and memories, read after its first run (see the README).
const heldBack3 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback3.v1.json', import.meta.url)));
// A fourth set written apart, run twice before anyone read it (see the README), then copied in.
const heldBack4 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback4.v1.json', import.meta.url)));
// A fifth set written apart, run once before anyone read it (see the README), then copied in.
const heldBack5 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback5.v1.json', import.meta.url)));
// A sixth set written apart, run twice before anyone read it (before and after v5 was read), then copied in.
const heldBack6 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback6.v1.json', import.meta.url)));
// A seventh set written apart, run once before anyone read it (rules after v5 was read), copied in, its labels
// reviewed against every memory's content; read, with the eighth, after the tenth set's first contact.
const heldBack7 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback7.v1.json', import.meta.url)));
const heldBack8 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback8.v1.json', import.meta.url)));
// The ninth and tenth sets, written apart with labels checked against every memory, run before anyone read them
// (v9 twice), copied in unread, then read after v11 and v12 first ran.
const heldBack9 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback9.v1.json', import.meta.url)));
const heldBack10 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback10.v1.json', import.meta.url)));
// The eleventh and twelfth sets, written apart in the same way (half of their no-answer queries near misses: a
// remembered subject and an aspect no memory has), run once before anyone read them, then copied in unread; v11 read
// since (answer types, see below), then v12 (options of a choice, see below).
const heldBack11 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback11.v1.json', import.meta.url)));
const heldBack12 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback12.v1.json', import.meta.url)));
// Parts 13 and 14 bring projects of their own (a Tauri desktop app; an ML platform), 60 memories and 90 queries each,
// written apart and copied in unread; every one of their memories must be stored, or the part measures nothing. v13 read
// since (answer kinds, see below); v14 and v15 stay unread.
const heldBack13 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback13.v1.json', import.meta.url)));
const heldBack14 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback14.v1.json', import.meta.url)));
const heldBack15 = loadRetrievalCorpus(fileURLToPath(new URL('../../quality/retrieval.heldback15.v1.json', import.meta.url)));

describe('retrieval corpus (issue 23, M-7.7, M-8.3)', () => {
  it('covers 3 projects × 60 memories and 300 labelled queries of every type, zh / en / mixed, 20 % without answer', () => {
    expect(corpus.projects.length).toBeGreaterThanOrEqual(3);
    for (const p of corpus.projects) expect(p.memories.length).toBeGreaterThanOrEqual(60);
    const queries = corpus.projects.flatMap((p) => p.queries);
    expect(queries.length).toBeGreaterThanOrEqual(300);
    expect(new Set(queries.map((q) => q.type))).toEqual(new Set(QUERY_TYPES));
    expect(new Set(queries.map((q) => q.lang))).toEqual(new Set(['zh', 'en', 'mixed']));
    expect(queries.filter((q) => q.relevant.length === 0).length / queries.length).toBeGreaterThanOrEqual(0.2);
  });

  it('through the public API: recall@5 ≥ 0.90, precision ≥ 0.85, false hits on no-answer queries ≤ 10 %, routing or search ≥ 95 %', async () => {
    const report = await runRetrieval(corpus, { MemoryManager, ScriptedLlm });
    const all = report.ours.all;
    expect(all.answerable).toBeGreaterThan(200);
    // Over every query whose relevant memory the pipeline stores (more stored memories, more queries counted).
    expect(all.recallAt5).toBeGreaterThanOrEqual(0.9);
    expect(all.precision).toBeGreaterThanOrEqual(0.85);
    expect(all.falseHits).toBeLessThanOrEqual(0.1);
    expect(all.reach).toBeGreaterThanOrEqual(0.95);
    expect(all.top1).toBeGreaterThanOrEqual(0.95);
    // Above plain BM25 on the same memories, and no language far behind.
    expect(all.recallAt5!).toBeGreaterThan(report.bm25.all.recallAt5!);
    for (const lang of ['zh', 'en', 'mixed']) expect(report.ours.byLang[lang]!.recallAt5, lang).toBeGreaterThanOrEqual(0.85);
  });

  it('held-back queries: recall@5 ≥ 0.85 and above BM25, precision ≥ 0.80, routing or search ≥ 95 %, false hits ≤ 10 %', async () => {
    const report = await runRetrieval(heldBack, { MemoryManager, ScriptedLlm }, { base: corpus });
    const all = report.ours.all;
    expect(all.answerable).toBeGreaterThan(150);
    expect(all.recallAt5).toBeGreaterThanOrEqual(0.85);
    expect(all.recallAt5!).toBeGreaterThan(report.bm25.all.recallAt5!);
    expect(all.precision).toBeGreaterThanOrEqual(0.8);
    expect(all.reach).toBeGreaterThanOrEqual(0.95);
    // Measured 5.6 % (13.0 % on first contact, 11.1 % before general words weighed less, 9.3 % before v2 was read,
    // 7.4 % before v3 was read).
    expect(all.falseHits).toBeLessThanOrEqual(0.1);
  });

  // The held-back parts already read: floors a little below the measured figures, so a regression fails.
  // v2 first contact: recall@5 0.719, precision 95.7 %, false hits 25.9 %, routing or search 96.7 %; after guesses,
  // function words, one-name identifiers and code-style words: 0.786, 94.2 %, 20.4 %, 97.2 %; after unknown words
  // weighed by their frequency in the language, one-word hits needing more and the glossary families: 0.798, 91.4 %,
  // 16.7 %, 97.2 %.
  // v3 first contact: 0.795, 88.0 %, 20.4 %, 99.5 %; after the same three changes: 0.850, 88.7 %, 13.0 %, 99.5 %.
  // v4 unread, on the rules before v3 was read: 0.707, 91.0 %, 9.3 %, 95.7 %; unread, on the rules after it: 0.731,
  // 86.2 %, 13.0 %, 95.7 %.
  // v5 first contact: 0.699, 92.3 %, 20.4 %, 96.2 %; after version numbers, acronym plurals and a compound's last
  // word as words, phrase rows needing 0.3 of the weight and the general glossary families: 0.792, 94.3 %, 18.5 %,
  // 97.8 % (v3 0.872, 89.4 %, 11.1 %; v4 0.802, 86.2 %, 13.0 %, 96.2 %).
  // v6 unread, on the rules after v5 was read: 0.643, 92.2 %, 16.7 %, 95.6 %; after it was read (a hyphen's participle,
  // the unit after "how many", lone interrogatives, the share an item needs falling with the length of the query):
  // 0.709, 84.0 %, 16.7 %, 95.6 % (v3 0.915, 89.4 %, 14.8 %; v4 0.807, 84.8 %, 13.0 %; v5 0.809, 93.8 %, 18.5 %).
  // v7 first contact, with its first labels: 0.809, 86.9 %, 18.5 %, 97.3 %; the same run's rules with the reviewed
  // labels (6 queries changed): 0.806, 85.8 %, 17.0 %, 97.3 %.
  // v8 first contact (labels checked against every memory when written): 0.881, 96.0 %, 16.7 %, 98.9 %; unread, on
  // the rules after v6 and rounds 14-15 were read: 0.897, 96.0 %, 14.6 %, 98.9 %.
  // v9 first contact: 0.776, 91.5 %, 14.6 %, 97.9 %; unread, with a typo match at 0.8 of its word: 0.782, 91.5 %,
  // 14.6 %, 98.4 %. v10 first contact (the same rules): 0.761, 91.9 %, 22.9 %, 97.4 %.
  // A typo match counting 0.8 of its word (was 0.6): v6 0.714, 85.2 %, 16.7 %; v7 0.822, 86.5 %, 13.2 %; the other
  // parts unchanged.
  // v7 and v8 read (their misses: the words of asking after an earlier agreement, concepts of everyday code work
  // missing from the glossary, light verbs paired into guesses, a negation before a hyphen, spring stemmed to spr):
  // v7 0.822 → 0.904, 86.5 → 90.4 %, 13.2 → 11.3 %, 97.3 → 98.9 %; v8 0.897 → 0.929, 96.0 → 96.7 %, 14.6 %,
  // 98.9 → 99.5 %. Unread meanwhile: v9 0.782 → 0.808, 91.5 → 90.7 %, 14.6 → 12.5 %, 98.4 → 98.9 %; v10 0.761 → 0.776,
  // 91.9 → 91.5 %, 22.9 → 18.8 %, 97.4 → 96.8 %.
  // v11 and v12 on the rules before v7 and v8 were read: 0.842, 94.2 %, 29.2 %, 99.5 % and 0.786, 88.2 %, 31.3 %,
  // 97.4 %; first contact with the rules after (the same run's figures stand): 0.863, 94.3 %, 31.3 %, 100 % and
  // 0.786, 87.2 %, 29.2 %, 97.4 %.
  // v9 and v10 read (their misses and false hits: near misses naming a remembered subject and an aspect no memory has,
  // Chinese aspect words weighed like words of asking, words of asking after a time, a preference or an outcome, an
  // English function word among Chinese words, MySQL found as SQL, misspelt words held below the share): v9 0.808 →
  // 0.829, 90.7 → 90.4 %, 12.5 → 10.4 %, 98.9 %; v10 0.776 → 0.782, 91.5 → 92.1 %, 18.8 → 14.6 %, 96.8 %; v7 0.904,
  // 90.4 → 91.9 %, 11.3 %, 98.9 %; v8 0.929 → 0.934, 96.7 → 97.3 %, 14.6 → 10.4 %, 99.5 %; dev 0.960, 91.9 → 92.5 %,
  // 2.5 → 1.2 %. Unread meanwhile: v11 0.863 → 0.858, 94.3 → 97.0 %, 31.3 → 29.2 %, 100 %; v12 0.786 → 0.802,
  // 87.2 → 88.4 %, 29.2 → 22.9 %, 97.4 → 98.4 %.
  // v11 read (its false hits: near misses asking for a quantity, a name form or a measure's value of a remembered
  // subject whose memory states none): answer types, a question for a quantity or a name form answered in the ranked
  // stage only by an item that states one. Recall@5 unchanged on every part; precision / false hits before → after:
  // dev 92.5 → 93.1 %, 1.2 %; v1 90.1 → 92.4 %, 3.7 %; v2 94.0 → 95.2 %, 16.7 → 13.0 %; v3 91.8 → 93.9 %, 11.1 → 7.4 %
  // (recall@5 0.910 → 0.915); v4 89.6 → 90.1 %, 9.3 → 5.6 %; v5 94.4 → 96.2 %, 14.8 → 9.3 %; v6 84.8 → 87.6 %,
  // 16.7 → 11.1 %; v7 91.9 %, 11.3 → 7.5 %; v8 97.3 %, 10.4 → 6.3 %; v9 90.4 → 92.0 %, 10.4 → 8.3 %; v10 92.1 → 93.3 %,
  // 14.6 → 4.2 %; v11 97.0 → 97.6 %, 29.2 → 18.8 %. Unread meanwhile: v12 0.802, 88.4 → 89.5 %, 22.9 → 12.5 %, 98.4 %.
  // v12 read (its misses: paraphrase; its false hits: near misses naming a remembered subject and an aspect no memory
  // has): options of a choice, a question offering A 还是 B / A or B / A vs B answered in the ranked stage only by an
  // item naming one option, and glossary forms remark, interactive, integration, numbering, the next day. v12 0.799 →
  // 0.821 (BM25 0.818), 89.3 → 89.6 %, 12.5 %, 98.4 %; false hits v3 7.4 → 5.6 %, v5 9.3 → 7.4 %; recall@5 of no part
  // fell. Unread meanwhile: v13 false hits 33.3 → 27.8 %, v14 unchanged.
  // v13 read (its false hits: near misses asking for a version, a size, a rate, a tool or a yes / no of a remembered
  // subject): answer kinds, a question for a time, a reason, a person, steps or a version (of a thing it names) answered in
  // the ranked stage only by an item that states one, and size / frequency / 大小 / 频率 as names of a measure. Recall@5
  // unchanged on every part; precision / false hits before → after: dev 93.0 → 93.3 %, 1.2 → 0 %; v3 93.8 → 94.4 %,
  // 5.6 %; v5 96.2 %, 7.4 → 5.6 %; v6 87.6 %, 11.1 → 9.3 %; v8 97.2 %, 6.3 → 4.2 %; v9 91.8 %, 8.3 → 6.3 %; v13 86.7 %,
  // 27.8 → 16.7 %; the other read parts unchanged. Unread meanwhile: v14 unchanged (0.931 / 98.6 % / 22.2 %), v15
  // 0.905 / 98.7 %, false hits 61.9 → 57.1 %.
  it.each([
    { part: 'v2', corpus: heldBack2, recallAt5: 0.84, precision: 0.94, reach: 0.97, falseHits: 0.14 },
    { part: 'v3', corpus: heldBack3, recallAt5: 0.9, precision: 0.93, reach: 0.98, falseHits: 0.06 },
    { part: 'v4', corpus: heldBack4, recallAt5: 0.82, precision: 0.89, reach: 0.96, falseHits: 0.07 },
    { part: 'v5', corpus: heldBack5, recallAt5: 0.81, precision: 0.95, reach: 0.97, falseHits: 0.06 },
    { part: 'v6', corpus: heldBack6, recallAt5: 0.71, precision: 0.86, reach: 0.95, falseHits: 0.1 },
    { part: 'v7', corpus: heldBack7, recallAt5: 0.89, precision: 0.91, reach: 0.98, falseHits: 0.08 },
    { part: 'v8', corpus: heldBack8, recallAt5: 0.92, precision: 0.96, reach: 0.98, falseHits: 0.05 },
    { part: 'v9', corpus: heldBack9, recallAt5: 0.82, precision: 0.91, reach: 0.98, falseHits: 0.07 },
    { part: 'v10', corpus: heldBack10, recallAt5: 0.77, precision: 0.92, reach: 0.96, falseHits: 0.05 },
    { part: 'v11', corpus: heldBack11, recallAt5: 0.85, precision: 0.97, reach: 0.99, falseHits: 0.2 },
    { part: 'v12', corpus: heldBack12, recallAt5: 0.81, precision: 0.89, reach: 0.98, falseHits: 0.13 },
    // Own projects. First contact (rules before v11 was read): v13 0.889 / 86.7 % / 33.3 % / 100 % (BM25 0.917), v14
    // 0.931 / 98.6 % / 33.3 % / 100 % (BM25 0.938); after v11 was read: v13 unchanged, v14 false hits 33.3 → 22.2 %;
    // after v12 was read: v13 false hits 33.3 → 27.8 %, v14 unchanged; v13 read since (answer kinds): 16.7 %. v14 and
    // v15 unread.
    { part: 'v13', corpus: heldBack13, recallAt5: 0.88, precision: 0.86, reach: 0.99, falseHits: 0.17, answerable: 60 },
    { part: 'v14', corpus: heldBack14, recallAt5: 0.92, precision: 0.98, reach: 0.99, falseHits: 0.23, answerable: 60 },
    { part: 'v15', corpus: heldBack15, recallAt5: 0.9, precision: 0.98, reach: 0.99, falseHits: 0.58, answerable: 80 },
  ])('held-back queries $part: floors a little below the measured figures, so a regression fails', async (floor) => {
    const report = await runRetrieval(floor.corpus, { MemoryManager, ScriptedLlm }, { base: corpus });
    const all = report.ours.all;
    expect(all.answerable).toBeGreaterThan(floor.answerable ?? 150);
    if (floor.corpus.projects.some((p) => p.memories.length > 0)) expect(report.missing).toEqual([]);
    expect(all.recallAt5).toBeGreaterThanOrEqual(floor.recallAt5);
    expect(all.precision).toBeGreaterThanOrEqual(floor.precision);
    expect(all.reach).toBeGreaterThanOrEqual(floor.reach);
    expect(all.falseHits).toBeLessThanOrEqual(floor.falseHits);
  });
});
