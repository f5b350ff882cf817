import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type GateBaseline,
  type GateFigures,
  type GateResult,
  figuresOf,
  labelOf,
  languageOf,
  loadGateCorpus,
  regressionsOf,
  runGateCorpus,
} from '../../quality/eval/gate.js';

const path = (file: string): string => fileURLToPath(new URL(`../../quality/${file}`, import.meta.url));
const corpus = loadGateCorpus(path('gate.v1.json'));
const baseline = JSON.parse(readFileSync(path('gate.baseline.json'), 'utf8')) as GateBaseline;

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

  it('labels all three verdicts and all three kinds', () => {
    expect(new Set(corpus.items.map((i) => labelOf(i.expect)))).toEqual(new Set(['accept', 'suggest', 'reject']));
    expect(new Set(corpus.items.map((i) => i.kind))).toEqual(new Set(['user_preference', 'project_decision', 'discussion_context']));
  });

  it('tells languages apart', () => {
    expect(languageOf('以后回答先给结论。')).toBe('zh');
    expect(languageOf('From now on, lead with the conclusion.')).toBe('en');
    expect(languageOf('以后 code review 的时候默认先列出 breaking changes。')).toBe('mixed');
  });
});

describe('M-5.6 / M-5.7 gate figures per category (a regression fails here)', () => {
  let figures: GateFigures;
  beforeAll(async () => {
    figures = (await runGateCorpus(corpus)).figures;
  });

  it('clear-cut tier: no silent false accept, at least 97 % right, suggestions at most 15 %', () => {
    const clear = figures.byTier['clear']!;
    expect(clear.falseAccepts).toBe(0);
    expect(clear.accuracy).toBeGreaterThanOrEqual(0.97);
    expect(clear.suggestRate).toBeLessThanOrEqual(0.15);
    expect(clear.reachableShare).toBeGreaterThanOrEqual(0.97);
  });

  it('hard tier: at least 80 % right', () => {
    expect(figures.byTier['hard']!.accuracy).toBeGreaterThanOrEqual(0.8);
  });

  it('every category and tier is at least as good as its recorded baseline', () => {
    expect(regressionsOf(figures, baseline)).toEqual([]);
  });

  it('per-language figures are reported for zh, en and mixed', () => {
    expect(Object.keys(figures.byLanguage).sort()).toEqual(['en', 'mixed', 'zh']);
    for (const t of Object.values(figures.byLanguage)) expect(t.n).toBeGreaterThan(0);
  });
});

describe('the gate figures can fail', () => {
  const result = (expect: string, outcome: GateResult['outcome']): GateResult => ({
    ...corpus.items.find((i) => labelOf(i.expect) === labelOf(expect))!,
    expect,
    outcome,
    reason: outcome === 'accept' ? null : 'no_speech_act',
  });

  it('a reject-labelled item accepted is a silent false accept; refused or suggested it is right', () => {
    expect(figuresOf([result('reject', 'refuse')]).overall).toMatchObject({ correct: 1, falseAccepts: 0 });
    expect(figuresOf([result('reject', 'suggest')]).overall).toMatchObject({ correct: 1, falseAccepts: 0, suggested: 1 });
    const bad = figuresOf([result('reject', 'accept')]);
    const item = result('reject', 'accept');
    expect(bad.overall).toMatchObject({ correct: 0, falseAccepts: 1 });
    expect(bad.byCategory[item.category]).toMatchObject({ falseAccepts: 1, accuracy: 0 });
    expect(bad.byLanguage[item.language]).toMatchObject({ falseAccepts: 1 });
  });

  it('an accept-labelled item is right only when accepted; suggested it is still reachable', () => {
    expect(figuresOf([result('accept', 'suggest')]).overall).toMatchObject({ correct: 0, heldBack: 1, reachable: 1, valid: 1 });
    expect(figuresOf([result('accept', 'refuse')]).overall).toMatchObject({ correct: 0, falseRefusals: 1, reachable: 0 });
    expect(figuresOf([result('suggest', 'accept')]).overall).toMatchObject({ correct: 1, reachable: 1 });
    expect(figuresOf([result('suggest', 'refuse')]).overall).toMatchObject({ correct: 0, reachable: 0 });
  });

  it('a baseline regression is reported', () => {
    const figures = figuresOf([result('reject', 'accept')]);
    const item = result('reject', 'accept');
    const strict: GateBaseline = {
      categories: { [item.category]: { [item.tier]: { n: 1, minCorrect: 1, maxFalseAccepts: 0, minReachable: 0 } } },
    };
    expect(regressionsOf(figures, strict)).toHaveLength(1);
  });
});

describe('M-5.7 the held-back rounds already read stay at their figures', () => {
  const rounds = JSON.parse(readFileSync(path('gate.rounds/baseline.json'), 'utf8')) as Record<string, GateBaseline>;
  it.each(Object.keys(rounds))('%s', async (round) => {
    const { figures } = await runGateCorpus(loadGateCorpus(path(`gate.rounds/${round}.json`)));
    expect(regressionsOf(figures, rounds[round]!)).toEqual([]);
  });
});

describe('M-5.6 generalization set (written after the rules) stays right', () => {
  it('clear-cut tier: no silent false accept and at least 97 % right; hard tier at least 80 %', async () => {
    const check = loadGateCorpus(path('gate.check.v1.json'));
    expect(check.items.length).toBeGreaterThanOrEqual(500);
    const { figures: f } = await runGateCorpus(check);
    expect(f.byTier['clear']!.falseAccepts).toBe(0);
    expect(f.byTier['clear']!.accuracy).toBeGreaterThanOrEqual(0.97);
    expect(f.byTier['hard']!.accuracy).toBeGreaterThanOrEqual(0.8);
  });
});
