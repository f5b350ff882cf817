import { displayWidth } from './width.js';

/** Pads to a display width: Chinese characters take two columns, so columns still line up. */
export function padDisplay(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** Cuts text to a display width, marking the cut. */
export function clipDisplay(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * A plain aligned table; the last column is not padded. With `totalWidth`, the column named by `flexible`
 * (default: the widest) is clipped so every row fits the terminal, Chinese characters counted as two.
 */
export function renderTable(headers: string[], rows: string[][], maxWidths: number[] = [], totalWidth?: number, flexible?: number): string {
  let cells = [headers, ...rows].map((row) => row.map((c, i) => (maxWidths[i] ? clipDisplay(c, maxWidths[i]!) : c)));
  let widths = headers.map((_, i) => Math.max(...cells.map((row) => displayWidth(row[i] ?? ''))));
  const used = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  if (totalWidth !== undefined && used > totalWidth) {
    const column = flexible ?? widths.indexOf(Math.max(...widths));
    const room = Math.max(8, widths[column]! - (used - totalWidth));
    cells = cells.map((row) => row.map((c, i) => (i === column ? clipDisplay(c, room) : c)));
    widths = headers.map((_, i) => Math.max(...cells.map((row) => displayWidth(row[i] ?? ''))));
  }
  return cells
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : padDisplay(c, widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
