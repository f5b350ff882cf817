import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as L from '../../../src/memory/pipeline/gate/lexicon.js';
import { GAP, SPAN } from '../../../src/memory/pipeline/gate/words.js';

/**
 * M-5.6: the gate's words are data, held to a schema. Every word list is { zh, en } of trimmed, non-empty
 * entries; a gap is written with a named token ({gap} inside a clause, {span} across commas), never with a
 * look-alike "…" glyph; Chinese entries hold Chinese, English entries none; and no list holds the same entry
 * twice once folded (NFKC, case, spaces) the way the matcher folds text.
 */
const fold = (entry: string): string => entry.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();

const Entry = z
  .string()
  .min(1)
  .refine((e) => e === e.trim(), 'has leading or trailing spaces')
  .refine((e) => !/[…⋯]/u.test(e), 'uses a "…" glyph instead of {gap} or {span}')
  .refine((e) => (e.match(/\{[^}]*\}/gu) ?? []).every((t) => t === GAP || t === SPAN), 'has an unknown {token}');
const Words = z.strictObject({ zh: z.array(Entry), en: z.array(Entry) });

const lists = Object.entries(L).filter(
  (e): e is [string, L.Words] => typeof e[1] === 'object' && e[1] !== null && Array.isArray((e[1] as Partial<L.Words>).zh),
);
const duplicates = (entries: readonly string[]): string[] => {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = fold(e);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
};

describe('M-5.6 the lexicon is data with a schema', () => {
  it('has its word lists', () => {
    expect(lists.length).toBeGreaterThan(30);
  });

  it.each(lists)('%s: the schema, Chinese in zh and none in en, no duplicate after folding', (_name, words) => {
    expect(Words.safeParse(words).error?.issues ?? []).toEqual([]);
    expect(words.en.filter((e) => /\p{Script=Han}/u.test(e))).toEqual([]);
    expect(words.zh.filter((e) => !/[\p{Script=Han}\p{So}]/u.test(e))).toEqual([]);
    expect(duplicates(words.zh)).toEqual([]);
    expect(duplicates(words.en)).toEqual([]);
  });

  it('the word classes of the grammar and of the clause shape hold no duplicate and no glyph gap', () => {
    const shapeLists = Object.entries(L.SHAPE).flatMap(([name, v]): [string, readonly string[]][] =>
      Array.isArray(v)
        ? [[name, v as readonly string[]]]
        : [
            [`${name}.zh`, (v as L.Words).zh],
            [`${name}.en`, (v as L.Words).en],
          ],
    );
    for (const [name, words] of [...Object.entries(L.GRAMMAR), ...shapeLists]) {
      expect(duplicates(words), name).toEqual([]);
      expect(
        words.filter((w) => !Entry.safeParse(w).success),
        name,
      ).toEqual([]);
    }
  });

  it('the schema can fail', () => {
    expect(Words.safeParse({ zh: ['每次…都'], en: [] }).success).toBe(false);
    expect(Words.safeParse({ zh: ['每次{hole}都'], en: [] }).success).toBe(false);
    expect(duplicates(['From now on', 'from  now on'])).toEqual(['from  now on']);
  });
});
