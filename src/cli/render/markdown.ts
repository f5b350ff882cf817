import { createRequire } from 'node:module';
import { displayWidth } from './width.js';

/** Turns markdown into terminal text (headings, emphasis, lists, tables, highlighted code). */
export type MarkdownToTerminal = (markdown: string) => string;

/**
 * Loads the renderer only when an answer is shown on a colour terminal, so commands that never render
 * markdown do not pay for marked, marked-terminal and the highlighter at start-up. Loaded with require (an
 * ES module through require needs Node 20.19): the command line runs from a code-cached bundle, where
 * Node 20 cannot run an import() of a package.
 */
export async function loadMarkdown(width: number): Promise<MarkdownToTerminal> {
  const load = createRequire(import.meta.url);
  const { Marked } = load('marked') as typeof import('marked');
  const { markedTerminal } = load('marked-terminal') as typeof import('marked-terminal');
  const marked = new Marked();
  // marked-terminal's types lag behind marked's extension type; the runtime contract is the documented one.
  const extension = markedTerminal({ width: Math.max(20, width), reflowText: true, tab: 2, showSectionPrefix: false } as Parameters<
    typeof markedTerminal
  >[0]);
  marked.use(extension as unknown as Parameters<typeof marked.use>[0]);
  return (markdown) => String(marked.parse(markdown, { async: false })).replace(/\n+$/, '\n');
}

/**
 * Renders a streamed answer as it arrives. Text is first written as it comes (so a long line still
 * streams); once a unit is complete — a line, a whole table, a whole fenced code block — the raw text is
 * erased and replaced by its rendering. If the raw text no longer fits on the screen to be erased, it stays
 * and only the rest is rendered.
 */
export class MarkdownStream {
  private pending = '';
  /** Raw text of `pending` already on the screen. */
  private shown = '';

  constructor(
    private readonly render: MarkdownToTerminal,
    private readonly write: (text: string) => void,
    private readonly screen: { columns: () => number; rows: () => number } = { columns: () => 80, rows: () => 24 },
  ) {}

  push(delta: string): void {
    this.pending += delta;
    const cut = completeUnitsEnd(this.pending);
    if (cut > 0) {
      const ready = this.pending.slice(0, cut);
      this.pending = this.pending.slice(cut);
      this.replaceShown(ready);
    }
    if (this.pending.length > this.shown.length) {
      this.write(this.pending.slice(this.shown.length));
      this.shown = this.pending;
    }
  }

  /** Renders what is left (the last unit). */
  flush(): void {
    if (this.pending.length > 0) this.replaceShown(this.pending.endsWith('\n') ? this.pending : `${this.pending}\n`);
    this.pending = '';
  }

  private replaceShown(units: string): void {
    const shown = this.shown;
    this.shown = '';
    if (shown.length > 0) {
      const rows = rowsOf(shown, this.screen.columns());
      if (rows >= this.screen.rows() - 1) {
        // Too tall to erase: the raw text stays; finish its line and render nothing twice.
        if (!shown.endsWith('\n')) this.write('\n');
        return;
      }
      this.write(`\r${rows > 0 ? `\u001b[${rows}A` : ''}\u001b[J`);
    }
    for (const unit of splitUnits(units)) this.write(unit.trim().length === 0 ? '\n' : this.render(unit));
  }
}

/** Screen rows above the cursor that `text` (written from a line start) occupies. */
function rowsOf(text: string, columns: number): number {
  const lines = text.split('\n');
  let rows = 0;
  lines.forEach((line, i) => {
    const width = displayWidth(line);
    const used = Math.max(1, Math.ceil(width / Math.max(1, columns)));
    rows += i === lines.length - 1 ? used - 1 : used;
  });
  return rows;
}

const FENCE = /^\s{0,3}(```|~~~)/;
const TABLE_ROW = /^\s*\|/;

/** The end of the last complete unit: a line, or a whole table or fenced block. */
export function completeUnitsEnd(text: string): number {
  let end = 0;
  let offset = 0;
  let inFence = false;
  let inTable = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i += 1) {
    const line = lines[i]!;
    const start = offset;
    offset += line.length + 1;
    if (inFence) {
      if (FENCE.test(line)) {
        inFence = false;
        end = offset;
      }
      continue;
    }
    if (inTable && !TABLE_ROW.test(line)) {
      inTable = false;
      end = start;
    }
    if (FENCE.test(line)) {
      inFence = true;
      continue;
    }
    if (TABLE_ROW.test(line)) {
      inTable = true;
      continue;
    }
    end = offset;
  }
  return end;
}

/** Splits complete text into units to render one by one (a line, a table, a fenced block). */
function splitUnits(text: string): string[] {
  const units: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    let cut = firstUnitEnd(rest);
    if (cut <= 0) cut = rest.length;
    units.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return units;
}

function firstUnitEnd(text: string): number {
  const lines = text.split('\n');
  const first = lines[0]!;
  if (FENCE.test(first)) {
    let offset = first.length + 1;
    for (let i = 1; i < lines.length; i += 1) {
      offset += lines[i]!.length + 1;
      if (FENCE.test(lines[i]!)) return Math.min(offset, text.length);
    }
    return text.length;
  }
  if (TABLE_ROW.test(first)) {
    let offset = 0;
    for (const line of lines) {
      if (!TABLE_ROW.test(line)) break;
      offset += line.length + 1;
    }
    return Math.min(offset, text.length);
  }
  return Math.min(first.length + 1, text.length);
}
