import { displayWidth } from './width.js';
import { padDisplay } from './table.js';

/** Lines of at most `width` display columns: breaks at spaces, and between any two CJK characters. */
export function wrapLine(text: string, width: number): string[] {
  const limit = Math.max(8, width);
  if (displayWidth(text) <= limit) return [text];
  const lines: string[] = [];
  let line = '';
  // Tokens: a run of non-space, non-wide characters (a word), one wide character, or spaces.
  const tokens =
    text.match(
      new RegExp(
        '[\\u1100-\\u115f\\u2e80-\\ua4cf\\uac00-\\ud7a3\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uff60\\uffe0-\\uffe6]|\\s+' +
          '|[^\\s\\u1100-\\u115f\\u2e80-\\ua4cf\\uac00-\\ud7a3\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uff60\\uffe0-\\uffe6]+',
        'gu',
      ),
    ) ?? [];
  for (const token of tokens) {
    if (/^\s+$/.test(token)) {
      if (line.length > 0 && displayWidth(line) + displayWidth(token) <= limit) line += token;
      else if (line.length > 0) {
        lines.push(line.trimEnd());
        line = '';
      }
      continue;
    }
    if (displayWidth(line) + displayWidth(token) <= limit) {
      line += token;
      continue;
    }
    if (line.trim().length > 0) lines.push(line.trimEnd());
    line = '';
    // A word longer than the line is cut hard.
    let rest = token;
    while (displayWidth(rest) > limit) {
      let cut = '';
      for (const ch of rest) {
        if (displayWidth(cut + ch) > limit) break;
        cut += ch;
      }
      lines.push(cut);
      rest = rest.slice(cut.length);
    }
    line = rest;
  }
  if (line.trim().length > 0 || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** Wraps every line of a text to `width` columns. */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((l) => wrapLine(l, width))
    .join('\n');
}

/**
 * Two columns (a name and its description) that fit the terminal: the description wraps under itself.
 * A name too long for the first column gets a line of its own, its description on the next line.
 */
export function renderColumns(rows: string[][], width: number, indent = ''): string {
  const pad = displayWidth(indent);
  const fitting = rows.map((r) => displayWidth(r[0] ?? '')).filter((w) => w <= Math.floor(width * 0.4));
  const first = fitting.length > 0 ? Math.max(...fitting) : Math.min(16, Math.floor(width / 3));
  const rest = Math.max(12, width - pad - first - 2);
  const out: string[] = [];
  for (const [name = '', description = ''] of rows) {
    const lines = wrapLine(description, rest);
    if (displayWidth(name) > first) {
      for (const line of wrapLine(name, width - pad)) out.push(`${indent}${line}`);
      for (const line of lines) out.push(`${indent}${' '.repeat(first)}  ${line}`);
      continue;
    }
    out.push(`${indent}${padDisplay(name, first)}  ${lines[0] ?? ''}`);
    for (const line of lines.slice(1)) out.push(`${indent}${' '.repeat(first)}  ${line}`);
  }
  return out.join('\n');
}
