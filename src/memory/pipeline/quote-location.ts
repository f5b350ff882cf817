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
  origin: number[];
  /** For each UTF-16 unit of `text`, the RAW offset just after the character it came from. */
  originEnd: number[];
}

/**
 * Folds a text for matching, keeping the map back to RAW offsets. Whitespace is dropped entirely. A letter is
 * folded together with its combining marks, so "é" and "e\u0301" (macOS file names, pasted text) are equal.
 */
function fold(raw: string): Folded {
  let text = '';
  const origin: number[] = [];
  const originEnd: number[] = [];
  for (const match of raw.matchAll(/\P{M}\p{M}*|\p{M}+/gu)) {
    const group = match[0];
    const offset = match.index;
    const next = offset + group.length;
    if (/^\s+$/u.test(group)) continue;
    let folded = '';
    for (const char of group.normalize('NFKC')) {
      const mapped = PUNCTUATION_FOLD[char] ?? char;
      folded += (PUNCTUATION_FOLD[mapped] ?? mapped).toLowerCase().replace(/\s+/gu, '');
    }
    for (let i = 0; i < folded.length; i += 1) {
      origin.push(offset);
      originEnd.push(next);
    }
    text += folded;
  }
  return { text, origin, originEnd };
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
