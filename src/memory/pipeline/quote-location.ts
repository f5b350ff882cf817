/**
 * M-5.5: a model's quote is located in the RAW text even when it differs only in form — full/half width,
 * the case of Latin letters, punctuation variants (`,`/`，`, `.`/`。`, straight/curly quotes), whitespace, or a
 * sentence mark added or dropped at its ends — and provenance then stores the exact RAW span found. Words
 * are never bridged: a paraphrase, a stitched quote ("A……B") or a missing word is not found.
 */

export interface QuoteSpan {
  /** UTF-16 offsets into the RAW text. */
  begin: number;
  end: number;
}

// Punctuation variants folded to one form on both sides. NFKC already maps full-width ASCII forms.
const PUNCTUATION_FOLD: Record<string, string> = {
  '。': '.',
  '．': '.',
  '｡': '.',
  '、': ',',
  '，': ',',
  '；': ';',
  '：': ':',
  '！': '!',
  '？': '?',
  '（': '(',
  '）': ')',
  '【': '[',
  '】': ']',
  '「': '"',
  '」': '"',
  '『': '"',
  '』': '"',
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '«': '"',
  '»': '"',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '`': "'",
  ʼ: "'",
  '–': '-',
  '—': '-',
  '－': '-',
  '～': '~',
};

// Marks a model adds or drops at the ends of a quote without changing what it says.
const EDGE_MARKS = /^[\s.,;:!?~"'()[\]]+|[\s.,;:!?~"'()[\]]+$/gu;

interface Folded {
  text: string;
  /** For each UTF-16 unit of `text`, the RAW offset of the character it came from. */
  origin: Int32Array;
  /** For each UTF-16 unit of `text`, the RAW offset just after the character it came from. */
  originEnd: Int32Array;
}

/** Work counted by `fold`, so a test can hold quote location to linear time (issue "Safe hands", item 3). */
export const foldWork = { units: 0 };

// A letter (or any character) with the combining marks after it, or marks alone; matched at one offset.
const GROUP = /\P{M}\p{M}*|\p{M}+/uy;
const WHITESPACE = /^\s+$/u;

/**
 * Folds a text for matching, keeping the map back to RAW offsets. Whitespace is dropped entirely. A letter is
 * folded together with its combining marks, so "é" and "e\u0301" (macOS file names, pasted text) are equal.
 * One pass, constant work per character: ASCII and CJK ideographs not followed by a combining mark take a fast
 * path (their NFKC form is themselves), everything else is folded group by group.
 */
function fold(raw: string): Folded {
  let origin = new Int32Array(raw.length + 16);
  let originEnd = new Int32Array(raw.length + 16);
  const pieces: string[] = [];
  let length = 0;
  const emit = (folded: string, from: number, to: number): void => {
    if (length + folded.length > origin.length) {
      const grown = Math.max(origin.length * 2, length + folded.length + 16);
      const o = new Int32Array(grown);
      o.set(origin);
      origin = o;
      const e = new Int32Array(grown);
      e.set(originEnd);
      originEnd = e;
    }
    for (let k = 0; k < folded.length; k += 1) {
      origin[length + k] = from;
      originEnd[length + k] = to;
    }
    length += folded.length;
    pieces.push(folded);
  };
  let i = 0;
  while (i < raw.length) {
    foldWork.units += 1;
    const code = raw.charCodeAt(i);
    // A combining mark can only follow at U+0300 and above.
    const next = i + 1 < raw.length ? raw.charCodeAt(i + 1) : 0;
    const plainNext = next < 0x300;
    if (code < 0x80 && plainNext) {
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        i += 1;
        continue;
      }
      const char = raw[i]!;
      emit(PUNCTUATION_FOLD[char] ?? (code >= 0x41 && code <= 0x5a ? char.toLowerCase() : char), i, i + 1);
      i += 1;
      continue;
    }
    // Followed by another ideograph, CJK punctuation before the tone marks (U+302A…) or a full-width form: no mark.
    const cjkNext = (next >= 0x4e00 && next <= 0x9fff) || (next >= 0x3000 && next <= 0x3029) || (next >= 0xff01 && next <= 0xff5e);
    if (code >= 0x4e00 && code <= 0x9fff && (plainNext || cjkNext)) {
      emit(raw[i]!, i, i + 1);
      i += 1;
      continue;
    }
    GROUP.lastIndex = i;
    const group = GROUP.exec(raw)![0];
    const end = i + group.length;
    if (!WHITESPACE.test(group)) {
      let folded = '';
      for (const char of group.normalize('NFKC')) {
        const mapped = PUNCTUATION_FOLD[char] ?? char;
        folded += (PUNCTUATION_FOLD[mapped] ?? mapped).toLowerCase().replace(/\s+/gu, '');
      }
      if (folded.length > 0) emit(folded, i, end);
    }
    i = end;
  }
  return { text: pieces.join(''), origin: origin.subarray(0, length), originEnd: originEnd.subarray(0, length) };
}

/** The folded form of a quote, without the sentence marks at its ends. */
export function foldQuote(quote: string): string {
  return fold(quote).text.replace(EDGE_MARKS, '');
}

/**
 * Every RAW span the quote stands for, in order: exact occurrences when there are any, else occurrences
 * equal after folding. Empty when the quote is not in the text.
 */
export function locateQuote(raw: string, quote: string): QuoteSpan[] {
  const exact: QuoteSpan[] = [];
  for (let at = raw.indexOf(quote); at >= 0 && quote.length > 0; at = raw.indexOf(quote, at + 1)) {
    exact.push({ begin: at, end: at + quote.length });
  }
  if (exact.length > 0) return exact;
  const needle = foldQuote(quote);
  if (needle.length === 0) return [];
  const hay = fold(raw);
  // Sentence marks the model kept at the quote's ends stand for the RAW marks there (an ASCII "." for "。").
  const folded = fold(quote).text;
  const leading = folded.length - folded.replace(/^[.,;:!?~"'()[\]]+/u, '').length;
  const trailing = folded.length - folded.replace(/[.,;:!?~"'()[\]]+$/u, '').length;
  const spans: QuoteSpan[] = [];
  for (let at = hay.text.indexOf(needle); at >= 0; at = hay.text.indexOf(needle, at + 1)) {
    let begin = hay.origin[at]!;
    let end = hay.originEnd[at + needle.length - 1]!;
    for (let n = 0; n < trailing && end < raw.length && /\p{P}/u.test(raw[end]!); n += 1) end += 1;
    for (let n = 0; n < leading && begin > 0 && /\p{P}/u.test(raw[begin - 1]!); n += 1) begin -= 1;
    spans.push({ begin, end });
  }
  return spans;
}
