/**
 * Text normalization shared by the extraction validator and retrieval (M-5.3, M-7.2).
 *
 * Matching always happens on normalized text: Unicode NFKC (so full-width 'ＡＢＣ１' equals 'abc1'),
 * case folding, and folding every run of whitespace and punctuation into one space. Quotes are still
 * verified against the RAW text; normalization is only for matching.
 */

const FOLD = /[\p{P}\p{Z}\s]+/gu;

/** NFKC + case fold + whitespace/punctuation folding, trimmed. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(FOLD, ' ').trim();
}

/** NFKC + case fold only: keeps punctuation, for phrase matching where punctuation matters little. */
export function foldCase(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// A CJK run, or a run of other letters and digits: "sql关键字" is two tokens, not one Latin word.
const TOKEN = new RegExp(
  '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]+' +
    '|(?:(?![\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}])[\\p{L}\\p{N}_])+',
  'gu',
);

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/** True when the character is Chinese, Japanese or Korean script. */
export function isCjk(char: string): boolean {
  return CJK.test(char);
}

// Words too common to say anything about an item; they never become content terms or query terms.
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can do does for from has have how i if in into is it its me my no not of on ' +
    'or our so that the their them then there these they this to us was we were what when where which who ' +
    'why will with you your'
  ).split(' '),
);

/**
 * Content terms of a text, in first-occurrence order, at most `limit` distinct ones.
 *
 * Chinese has no spaces between words, so a run of CJK characters becomes its overlapping character
 * bigrams ("缓存策略" → 缓存, 存策, 策略); a query is tokenized the same way and must contain only
 * terms the item has, so a Chinese query finds a Chinese item whatever the word boundaries are.
 * Latin-script text becomes words of at least two characters, minus a small stopword list.
 */
export function contentTerms(text: string, limit: number): string[] {
  const out = new Set<string>();
  const normalized = normalizeText(text);
  // (An exec loop, not matchAll, which copies the regex on every call; TOKEN is used nowhere else.)
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(normalized); match !== null; match = TOKEN.exec(normalized)) {
    const token = match[0];
    if (isCjk(token[0]!)) {
      // (Bigrams by code unit where the run has no astral character, the common case; else by code point.)
      const chars = ASTRAL.test(token) ? Array.from(token) : null;
      const length = chars ? chars.length : token.length;
      if (length === 1) out.add(token);
      for (let i = 0; i + 1 < length; i += 1) {
        out.add(chars ? chars[i]! + chars[i + 1]! : token.slice(i, i + 2));
        if (out.size >= limit) return [...out];
      }
    } else if (token.length >= 2 && !STOPWORDS.has(token)) {
      out.add(token);
    }
    if (out.size >= limit) return [...out];
  }
  return [...out];
}

/** Cut text to at most `max` characters (UTF-16 units, never splitting a surrogate pair), marking the cut. */
export function clip(text: string, max: number, marker = '…'): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - marker.length);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end) + marker;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
