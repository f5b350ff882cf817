import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { figuresOf, languageOf, loadGateCorpus, runGateCorpus } from '../../quality/eval/gate.mjs';

const path = (file: string): string => fileURLToPath(new URL(`../../quality/${file}`, import.meta.url));
const corpus = loadGateCorpus(path('gate.v1.json'));
const baseline = JSON.parse(readFileSync(path('gate.baseline.json'), 'utf8')) as {
  categories: Record<string, Record<string, { n: number; minCorrect: number; maxFalseAccepts: number }>>;
};

describe('M-13.2 / M-5.6 gate corpus invariants', () => {
  it('holds at least 400 labelled candidates in at least 30 categories, each described', () => {
    expect(corpus.items.length).toBeGreaterThanOrEqual(400);
    expect(Object.keys(corpus.categories).length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.items.map((i) => i.category))).toEqual(new Set(Object.keys(corpus.categories)));
  });

  it('is about half Chinese, with mixed sentences, and has both tiers', () => {
    const count = (pred: (i: (typeof corpus.items)[number]) => boolean): number => corpus.items.filter(pred).length;
    const chinese = count((i) => i.language !== 'en') / corpus.items.length;
    expect(chinese).toBeGreaterThan(0.4);
    expect(chinese).toBeLessThan(0.65);
    expect(count((i) => i.language === 'mixed')).toBeGreaterThanOrEqual(20);
    expect(count((i) => i.tier === 'hard')).toBeGreaterThanOrEqual(80);
    expect(count((i) => i.tier === 'clear')).toBeGreaterThanOrEqual(250);
  });

  it('labels both outcomes and all three kinds', () => {
    expect(new Set(corpus.items.map((i) => i.expect === 'accept'))).toEqual(new Set([true, false]));
    expect(new Set(corpus.items.map((i) => i.kind))).toEqual(new Set(['user_preference', 'project_decision', 'discussion_context']));
  });

  it('tells languages apart', () => {
    expect(languageOf('以后回答先给结论。')).toBe('zh');
    expect(languageOf('From now on, lead with the conclusion.')).toBe('en');
    expect(languageOf('以后 code review 的时候默认先列出 breaking changes。')).toBe('mixed');
  });
});

describe('M-5.6 gate figures per category (a regression fails here)', () => {
  let figures: ReturnType<typeof figuresOf>;
  beforeAll(async () => {
    figures = (await runGateCorpus(corpus)).figures;
  });

  it('clear-cut tier: no false accept and at least 97 % right', () => {
    expect(figures.byTier['clear']!.falseAccepts).toBe(0);
    expect(figures.byTier['clear']!.accuracy).toBeGreaterThanOrEqual(0.97);
  });

  it('hard tier: at least 80 % right', () => {
    expect(figures.byTier['hard']!.accuracy).toBeGreaterThanOrEqual(0.8);
  });

  it('every category and tier is at least as good as its recorded baseline', () => {
    const byCategoryTier = figures.byCategoryTier as Record<string, Record<string, { n: number; correct: number; falseAccepts: number }>>;
    expect(Object.keys(byCategoryTier).sort()).toEqual(Object.keys(baseline.categories).sort());
    const regressions: string[] = [];
    for (const [category, tiers] of Object.entries(baseline.categories)) {
      for (const [tier, b] of Object.entries(tiers)) {
        const t = byCategoryTier[category]?.[tier];
        if (!t || t.n !== b.n)
          regressions.push(`${category}/${tier}: ${t?.n ?? 0} items, baseline ${b.n} (rerun --write-baseline after editing the corpus)`);
        else if (t.correct < b.minCorrect || t.falseAccepts > b.maxFalseAccepts) {
          regressions.push(
            `${category}/${tier}: ${t.correct}/${t.n} right, ${t.falseAccepts} false accepts; baseline ${b.minCorrect} right, ${b.maxFalseAccepts} false accepts`,
          );
        }
      }
    }
    expect(regressions).toEqual([]);
  });

  it('per-language figures are reported for zh, en and mixed', () => {
    expect(Object.keys(figures.byLanguage).sort()).toEqual(['en', 'mixed', 'zh']);
    for (const t of Object.values(figures.byLanguage)) expect(t.n).toBeGreaterThan(0);
  });
});

describe('the gate figures can fail', () => {
  it('a wrong decision counts as a false accept or a false refusal in its category, language and tier', () => {
    const item = corpus.items.find((i) => i.expect !== 'accept')!;
    const good = figuresOf([{ ...item, accepted: false, reason: 'no_speech_act' }]);
    const bad = figuresOf([{ ...item, accepted: true, reason: null }]);
    expect(good.overall).toMatchObject({ correct: 1, falseAccepts: 0 });
    expect(bad.overall).toMatchObject({ correct: 0, falseAccepts: 1 });
    expect(bad.byCategory[item.category]).toMatchObject({ falseAccepts: 1, accuracy: 0 });
    expect(bad.byLanguage[item.language]).toMatchObject({ falseAccepts: 1 });
    const accept = corpus.items.find((i) => i.expect === 'accept')!;
    expect(figuresOf([{ ...accept, accepted: false, reason: 'temporary' }]).byTier[accept.tier]).toMatchObject({ falseRefusals: 1 });
  });
});

describe('M-5.6 generalization set (written after the rules) stays right', () => {
  it('clear-cut tier: no false accept and at least 97 % right; hard tier at least 80 %', async () => {
    const check = loadGateCorpus(path('gate.check.v1.json'));
    expect(check.items.length).toBeGreaterThanOrEqual(500);
    const { figures: f } = await runGateCorpus(check);
    expect(f.byTier['clear']!.falseAccepts).toBe(0);
    expect(f.byTier['clear']!.accuracy).toBeGreaterThanOrEqual(0.97);
    expect(f.byTier['hard']!.accuracy).toBeGreaterThanOrEqual(0.8);
  });
});
