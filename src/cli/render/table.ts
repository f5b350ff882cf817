import { displayWidth, simpleWidth } from './width.js';

/** Pads to a display width: Chinese characters take two columns, so columns still line up. */
export function padDisplay(text: string, width: number, measured = displayWidth(text)): string {
  return text + ' '.repeat(Math.max(0, width - measured));
}

/** Cuts text to a display width, marking the cut. */
export function clipDisplay(text: string, width: number, measured = displayWidth(text)): string {
  if (measured <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const own = ch.length === 1 ? simpleWidth(ch.charCodeAt(0)) : -1;
    // Text the fast path measures adds up character by character; anything else is measured as a whole.
    const next = own >= 0 ? used + own : displayWidth(out + ch);
    if (next > width - 1) break;
    out += ch;
    used = next;
  }
  return `${out}…`;
}

/**
 * A plain aligned table; the last column is not padded. With `totalWidth`, the column named by `flexible`
 * (default: the widest) is clipped so every row fits the terminal, Chinese characters counted as two. Each
 * cell is measured once, so a table of 100k rows renders in linear time.
 */
export function renderTable(headers: string[], rows: string[][], maxWidths: number[] = [], totalWidth?: number, flexible?: number): string {
  const cells = [headers, ...rows].map((row) => row.map((c, i) => fitted(c, maxWidths[i])));
  const widths = columnWidths(headers.length, cells);
  const used = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  if (totalWidth !== undefined && used > totalWidth) {
    const column = flexible ?? widths.indexOf(Math.max(...widths));
    const room = Math.max(8, widths[column]! - (used - totalWidth));
    for (const row of cells) {
      const cell = row[column];
      if (cell) row[column] = fitted(cell.text, room, cell.width);
    }
    widths.splice(0, widths.length, ...columnWidths(headers.length, cells));
  }
  return cells
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c.text : padDisplay(c.text, widths[i]!, c.width)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

interface Cell {
  text: string;
  width: number;
}

function fitted(text: string, max: number | undefined, measured = displayWidth(text)): Cell {
  if (!max || measured <= max) return { text, width: measured };
  const clipped = clipDisplay(text, max, measured);
  return { text: clipped, width: displayWidth(clipped) };
}

function columnWidths(count: number, cells: Cell[][]): number[] {
  const widths = new Array<number>(count).fill(0);
  for (const row of cells) row.forEach((cell, i) => (widths[i] = Math.max(widths[i]!, cell.width)));
  return widths;
}
