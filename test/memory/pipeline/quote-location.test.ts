import { describe, expect, it } from 'vitest';
import { foldWork, locateQuote } from '../../../src/memory/pipeline/quote-location.js';

// The quote location before it was made linear, as the reference for what it must find (M-5.5).
const FOLD: Record<string, string> = {
  '。': '.',
  '，': ',',
  '、': ',',
  '：': ':',
  '“': '"',
  '”': '"',
  '’': "'",
  '`': "'",
  '（': '(',
  '）': ')',
};
function referenceFold(raw: string): { text: string; origin: number[]; originEnd: number[] } {
  let text = '';
  const origin: number[] = [];
  const originEnd: number[] = [];
  for (const match of raw.matchAll(/\P{M}\p{M}*|\p{M}+/gu)) {
    const group = match[0];
    if (/^\s+$/u.test(group)) continue;
    let folded = '';
    for (const char of group.normalize('NFKC')) {
      const mapped = FOLD[char] ?? char;
      folded += (FOLD[mapped] ?? mapped).toLowerCase().replace(/\s+/gu, '');
    }
    for (let i = 0; i < folded.length; i += 1) {
      origin.push(match.index);
      originEnd.push(match.index + group.length);
    }
    text += folded;
  }
  return { text, origin, originEnd };
}

/** The old locateQuote, on the reference fold. */
function referenceLocate(raw: string, quote: string): { begin: number; end: number }[] {
  const exact: { begin: number; end: number }[] = [];
  for (let at = raw.indexOf(quote); at >= 0 && quote.length > 0; at = raw.indexOf(quote, at + 1))
    exact.push({ begin: at, end: at + quote.length });
  if (exact.length > 0) return exact;
  const needle = referenceFold(quote).text.replace(/^[\s.,;:!?~"'()[\]]+|[\s.,;:!?~"'()[\]]+$/gu, '');
  if (needle.length === 0) return [];
  const hay = referenceFold(raw);
  const folded = referenceFold(quote).text;
  const leading = folded.length - folded.replace(/^[.,;:!?~"'()[\]]+/u, '').length;
  const trailing = folded.length - folded.replace(/[.,;:!?~"'()[\]]+$/u, '').length;
  const spans: { begin: number; end: number }[] = [];
  for (let at = hay.text.indexOf(needle); at >= 0; at = hay.text.indexOf(needle, at + 1)) {
    let begin = hay.origin[at]!;
    let end = hay.originEnd[at + needle.length - 1]!;
    for (let n = 0; n < trailing && end < raw.length && /\p{P}/u.test(raw[end]!); n += 1) end += 1;
    for (let n = 0; n < leading && begin > 0 && /\p{P}/u.test(raw[begin - 1]!); n += 1) begin -= 1;
    spans.push({ begin, end });
  }
  return spans;
}

function randomText(random: () => number, length: number): string {
  const alphabet = [
    'a',
    'B',
    'z',
    ' ',
    '\n',
    '\t',
    '以',
    '后',
    '结',
    '论',
    '。',
    '，',
    '.',
    ',',
    'e\u0301',
    'é',
    'Ａ',
    '“',
    '”',
    '`',
    "'",
    'ﬁ',
    '（',
  ];
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

describe('quote location (M-5.5; issue "Safe hands", item 3)', () => {
  it('finds what the reference finds, on 3,000 random texts and form-varied quotes', () => {
    let seed = 20261201;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let found = 0;
    for (let n = 0; n < 3000; n += 1) {
      const raw = randomText(random, 5 + Math.floor(random() * 60));
      const from = Math.floor(random() * raw.length);
      let quote = raw.slice(from, from + 1 + Math.floor(random() * 12));
      // Vary the form as models do: case, width, punctuation, spacing.
      if (random() < 0.5) quote = quote.toUpperCase().replace(/。/gu, '.').replace(/ /gu, '');
      const spans = locateQuote(raw, quote);
      expect(spans, JSON.stringify({ raw, quote })).toEqual(referenceLocate(raw, quote));
      found += spans.length > 0 ? 1 : 0;
    }
    expect(found).toBeGreaterThan(2000);
  });

  it('does work linear in the text: 10× the blank lines before the quote is 10× the work, not 100×', () => {
    const work = (n: number): number => {
      foldWork.units = 0;
      // The folded path (the quote ends in an ASCII full stop where the text has 。), the one that was quadratic.
      const spans = locateQuote(`${'\n'.repeat(n)}以后回答先给结论。`, '以后回答先给结论.');
      expect(spans).toHaveLength(1);
      return foldWork.units;
    };
    const small = work(10_000);
    const large = work(100_000);
    expect(large / small).toBeGreaterThan(8);
    expect(large / small).toBeLessThan(12);
    expect(large).toBeLessThan(100_000 * 1.01 + 100);
  });
});
