import { createRequire } from 'node:module';

/**
 * Display width in terminal columns. Text made only of printable ASCII, Latin-1 letters, general punctuation,
 * CJK ideographs, kana, Hangul syllables and full-width forms (what Memory titles and tables hold) is measured
 * here; anything else (emoji, combining marks, control and format characters) goes to `string-width`, which
 * costs ~30 ms to load and is therefore loaded on first need only. A test holds every code point of the
 * ranges below to string-width's answer.
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const w = simpleWidth(c);
    if (w < 0) return fullWidth()(text);
    width += w;
  }
  return width;
}

/** 1 or 2 for a code unit measured here, -1 for one that needs the full grapheme rules. */
export function simpleWidth(c: number): number {
  if (c >= 0x20 && c <= 0x7e) return 1;
  if (c >= 0xa0 && c <= 0x2ff) return c === 0xad ? -1 : 1;
  if (c >= 0x2010 && c <= 0x2027) return 1;
  if (c >= 0x2030 && c <= 0x205e) return 1;
  if (c >= 0x3000 && c <= 0x3029) return 2;
  if (c >= 0x3030 && c <= 0x303e) return 2;
  if (c >= 0x3041 && c <= 0x3096) return 2;
  if (c >= 0x30a0 && c <= 0x30ff) return 2;
  if (c >= 0x3400 && c <= 0x4dbf) return 2;
  if (c >= 0x4e00 && c <= 0x9fff) return 2;
  if (c >= 0xac00 && c <= 0xd7a3) return 2;
  if (c >= 0xff01 && c <= 0xff60) return 2;
  if (c >= 0xffe0 && c <= 0xffe6) return 2;
  return -1;
}

const load = createRequire(import.meta.url);
let full: ((text: string) => number) | undefined;

function fullWidth(): (text: string) => number {
  full ??= (load('string-width') as { default: (text: string) => number }).default;
  return full;
}
