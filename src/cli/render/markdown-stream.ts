import { BLOCK_INDENT, type MarkdownBlock, type MarkdownRenderer } from './markdown.js';
import { displayWidth, simpleWidth } from './width.js';

/** Code lines before the current one given to the highlighter, so a line inside a string or comment keeps its colour. */
const CODE_CONTEXT_LINES = 12;

interface OpenFence {
  marker: string;
  info: string;
  /** The last code lines, for highlighting context. */
  recent: string[];
}

/**
 * Renders a streamed answer as it arrives, block by block as the markdown lexer splits it, so each block is
 * rendered as it would be in the whole answer. The text of the unfinished block is first written raw (a long
 * line still streams), then erased and replaced by its rendering once the block is complete. Two kinds of
 * block are given out piece by piece: a list item by item (numbered from its own number), and a fenced code
 * block line by line, so neither has to be erased whole. Raw text is shown only while it fits on the screen
 * to be erased; past that the block appears when it is complete.
 */
export class MarkdownStream {
  /** Text not yet rendered; it starts at a line start. */
  private pending = '';
  /** Raw text on the screen since the last rendering (erased before the next one). */
  private shown = '';
  /** How much of `pending` is on the screen raw. */
  private echoed = 0;
  /** The raw echo stopped: the unfinished block outgrew what can be erased. */
  private held = false;
  /** A block was rendered: one blank line goes before the next block. */
  private gap = false;
  /** Items of the unfinished list were rendered: its next items follow without a gap. */
  private listOpen = false;
  private fence: OpenFence | null = null;

  constructor(
    private readonly markdown: MarkdownRenderer,
    private readonly write: (text: string) => void,
    private readonly screen: { columns: () => number; rows: () => number } = { columns: () => 80, rows: () => 24 },
  ) {}

  push(delta: string): void {
    if (delta.length === 0) return;
    this.pending += delta;
    this.echo();
    if (delta.includes('\n')) this.commit(false);
  }

  /** Renders what is left (the last block). */
  flush(): void {
    this.commit(true);
    this.pending = '';
    this.gap = false;
    this.listOpen = false;
  }

  /** Writes the raw text of the unfinished block, as long as it can still be erased. */
  private echo(): void {
    if (this.held) return;
    // Blank lines between blocks are the renderer's to draw; inside a code block they are code.
    if (this.echoed === 0 && !this.fence) {
      const blank = /^\n*/.exec(this.pending)![0].length;
      this.pending = this.pending.slice(blank);
    }
    let text = this.pending.slice(this.echoed);
    if (text.length === 0) return;
    if (this.fence && this.echoed === 0) text = `${BLOCK_INDENT}${text}`;
    if (rowsOf(this.shown + text, this.screen.columns()) >= this.screen.rows() - 1) {
      this.held = true;
      return;
    }
    this.openGap();
    this.write(text);
    this.shown += text;
    this.echoed = this.pending.length;
  }

  /** Renders every complete block (`final`: everything) in place of its raw text. */
  private commit(final: boolean): void {
    const out: string[] = [];
    const before = this.pending.length;
    for (;;) {
      if (this.fence) {
        if (!this.commitFenceLines(final, out)) break;
        continue;
      }
      const end = final ? this.pending.length : this.pending.lastIndexOf('\n') + 1;
      if (end === 0) break;
      const complete = this.pending.slice(0, end);
      let blocks = this.markdown.blocks(complete);
      // Text the lexer did not give back as it came cannot be split safely: it is rendered whole at the end.
      if (blocks.map((b) => b.raw).join('') !== complete) {
        if (!final) break;
        blocks = [{ type: 'text', raw: complete }];
      }
      // The last block may still grow, unless the answer is over.
      let last = blocks.length - 1;
      while (last >= 0 && blocks[last]!.type === 'space') last -= 1;
      let consumed = 0;
      for (let i = 0; i < blocks.length; i += 1) {
        const block = blocks[i]!;
        if (i === last && !final) {
          consumed += this.openBlock(block, out);
          break;
        }
        if (block.type !== 'space') this.renderBlock(block.raw, out);
        consumed += block.raw.length;
      }
      this.pending = this.pending.slice(consumed);
      if (!this.fence) break;
    }
    if (out.length === 0 && this.pending.length === before) return;
    this.erase();
    this.write(out.join(''));
    this.held = false;
    this.echo();
  }

  /** The unfinished last block: a fence starts line-by-line output, a list gives out its finished items. Returns what it took. */
  private openBlock(block: MarkdownBlock, out: string[]): number {
    if (block.fence) {
      const opening = block.raw.indexOf('\n') + 1;
      if (opening === 0) return 0;
      this.separate(out);
      this.fence = { marker: block.fence.marker, info: block.fence.info, recent: [] };
      return opening;
    }
    const items = block.items ?? [];
    if (block.type !== 'list' || items.length < 2) return 0;
    const done = items.slice(0, -1).join('');
    if (!block.raw.startsWith(done)) return 0;
    this.renderBlock(done, out);
    this.gap = false;
    this.listOpen = true;
    return done.length;
  }

  /** Renders the complete lines of the open fence; true when the fence closed (more blocks may follow). */
  private commitFenceLines(final: boolean, out: string[]): boolean {
    const fence = this.fence!;
    for (;;) {
      const newline = this.pending.indexOf('\n');
      if (newline < 0 && !(final && this.pending.length > 0)) break;
      const line = newline < 0 ? this.pending : this.pending.slice(0, newline);
      this.pending = newline < 0 ? '' : this.pending.slice(newline + 1);
      if (closesFence(line, fence.marker)) {
        this.fence = null;
        this.gap = true;
        return true;
      }
      fence.recent.push(line);
      if (fence.recent.length > CODE_CONTEXT_LINES) fence.recent.shift();
      out.push(`${this.markdown.codeLines(fence, fence.recent).at(-1)!}\n`);
    }
    if (final) {
      this.fence = null;
      this.gap = true;
    }
    return false;
  }

  private renderBlock(raw: string, out: string[]): void {
    this.separate(out);
    out.push(this.markdown.render(raw));
    this.gap = true;
  }

  /** One blank line between blocks, none inside a list given out item by item. */
  private separate(out: string[]): void {
    if (this.gap && !this.listOpen) out.push('\n');
    this.gap = false;
    this.listOpen = false;
  }

  /** Before raw text of a new block: the blank line that separates it from the block above. */
  private openGap(): void {
    if (this.shown.length > 0 || !this.gap || this.listOpen) return;
    this.write('\n');
    this.gap = false;
  }

  private erase(): void {
    if (this.shown.length === 0) return;
    const rows = rowsOf(this.shown, this.screen.columns());
    this.write(`\r${rows > 0 ? `\u001b[${rows}A` : ''}\u001b[J`);
    this.shown = '';
    this.echoed = 0;
  }
}

function closesFence(line: string, marker: string): boolean {
  const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return close !== null && close[1]![0] === marker[0] && close[1]!.length >= marker.length;
}

/** Screen rows above the cursor that `text` (written from a line start) occupies. */
export function rowsOf(text: string, columns: number): number {
  const lines = text.split('\n');
  let rows = 0;
  lines.forEach((line, i) => {
    const used = rowsOfLine(line, Math.max(1, columns));
    rows += i === lines.length - 1 ? used - 1 : used;
  });
  return rows;
}

let graphemes: Intl.Segmenter | undefined;

/**
 * The rows one line takes as a terminal writes it, character by character: a character wider than what is
 * left of the row (a double-width one with one column left) starts the next row and leaves that column
 * empty, so a Chinese line needs more rows than its width divided by the columns. A line that exactly fills
 * its last row keeps the cursor there (the wrap waits for the next character). A tab moves to the next
 * multiple of 8 and never wraps.
 */
function rowsOfLine(line: string, columns: number): number {
  let rows = 1;
  let col = 0;
  const put = (width: number): void => {
    if (width === 0) return;
    if (col + width > columns) {
      rows += 1;
      col = 0;
    }
    col += width;
  };
  const simple = [...line].every((ch) => ch === '\t' || simpleWidth(ch.charCodeAt(0)) > 0);
  const cells = simple ? line : [...(graphemes ??= new Intl.Segmenter()).segment(line)].map((g) => g.segment);
  for (const cell of cells) {
    if (cell === '\t') col = Math.min(columns, (Math.floor(col / 8) + 1) * 8);
    else put(simple ? simpleWidth(cell.charCodeAt(0)) : displayWidth(cell));
  }
  return rows;
}
