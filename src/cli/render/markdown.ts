/** Turns markdown into terminal text (headings, emphasis, lists, tables, highlighted code). */
export type MarkdownToTerminal = (markdown: string) => string;

/**
 * Loads the renderer only when an answer is shown on a colour terminal, so commands that never render
 * markdown do not pay for marked, marked-terminal and the highlighter at start-up.
 */
export async function loadMarkdown(width: number): Promise<MarkdownToTerminal> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import('marked'), import('marked-terminal')]);
  const marked = new Marked();
  // marked-terminal's types lag behind marked's extension type; the runtime contract is the documented one.
  marked.use(markedTerminal({ width: Math.max(20, width), reflowText: true, tab: 2 }) as unknown as Parameters<typeof marked.use>[0]);
  return (markdown) => String(marked.parse(markdown, { async: false })).replace(/\n+$/, '\n');
}

/**
 * Renders a streamed answer block by block: a block is written once it is complete (a blank line outside
 * a code fence), so the answer still appears as it arrives and a code block is highlighted whole.
 */
export class MarkdownStream {
  private pending = '';

  constructor(private readonly render: MarkdownToTerminal, private readonly write: (text: string) => void) {}

  push(delta: string): void {
    this.pending += delta;
    const cut = completeBlocksEnd(this.pending);
    if (cut <= 0) return;
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    this.write(this.render(ready));
  }

  /** Writes what is left (the last block). */
  flush(): void {
    if (this.pending.trim().length > 0) this.write(this.render(this.pending));
    this.pending = '';
  }
}

/** The end of the last complete block: after a blank line that is not inside a fenced code block. */
function completeBlocksEnd(text: string): number {
  let inFence = false;
  let end = 0;
  let offset = 0;
  const lines = text.split('\n');
  // The last element is an unfinished line.
  for (let i = 0; i < lines.length - 1; i += 1) {
    const line = lines[i]!;
    offset += line.length + 1;
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      inFence = !inFence;
      if (!inFence) end = offset;
      continue;
    }
    if (!inFence && line.trim() === '' && !looksLikeListOrTableContinues(lines, i)) end = offset;
  }
  return end;
}

/** Keeps a loose list or a table together when a blank line sits inside it. */
function looksLikeListOrTableContinues(lines: string[], index: number): boolean {
  const before = lines[index - 1] ?? '';
  const after = lines[index + 1];
  if (after === undefined) return false;
  const item = /^\s*([-*+]|\d+[.)])\s/;
  return item.test(before) && (after === '' || item.test(after));
}
