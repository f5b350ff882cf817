import { createRequire } from 'node:module';
import type { MarkedExtension, Token, Tokens } from 'marked';
import { reflowProse } from './reflow.js';
import { displayWidth } from './width.js';

/** What marked-terminal writes for ':' inside code spans until its text transform puts the colon back. */
const COLON_REPLACER = '*#COLON|*';

/** A top-level block of an answer as the markdown lexer sees it. */
export interface MarkdownBlock {
  type: string;
  raw: string;
  /** A list: the raw text of each item (their concatenation starts the block's raw). */
  items?: string[];
  /** A fenced code block: its opening fence (three or more backticks or tildes) and its info string. */
  fence?: { marker: string; info: string };
}

/** Answers rendered for the terminal (headings, emphasis, lists, tables, highlighted code). */
export interface MarkdownRenderer {
  render(markdown: string): string;
  /** The top-level blocks of `markdown`, in order; their raw texts add up to the input. */
  blocks(markdown: string): MarkdownBlock[];
  /** The rendered lines of code lines inside a fence (its marker and info): one rendered line per input line. */
  codeLines(fence: { marker: string; info: string }, lines: string[]): string[];
}

/** The indentation marked-terminal gives code blocks and list items. */
export const BLOCK_INDENT = '  ';

type Load = (name: string) => unknown;

/**
 * Loads the renderer only when an answer is shown on a colour terminal, so commands that never render
 * markdown do not pay for marked, marked-terminal and the highlighter at start-up. Loaded with require (an
 * ES module through require needs Node 20.19): the command line runs from a code-cached bundle, where
 * Node 20 cannot run an import() of a package.
 *
 * On top of marked-terminal, four repairs: inline markup inside list items is rendered (marked-terminal
 * prints the inline text of a tight list item raw with marked ≥ 13), an ordered list starting at N is
 * numbered from N (a list interrupted by a code block goes on at 2., 3., …), prose (paragraphs, headings,
 * list items, quotes) is filled by display width at Unicode line-break opportunities within the room its
 * nesting leaves (`reflowProse`), and a table fits `width`: columns share the room and cells wrap between
 * words, Chinese characters counted as two columns (cli-table3 alone cuts such cells short).
 */
export async function loadMarkdown(width: number): Promise<MarkdownRenderer> {
  const load = createRequire(import.meta.url) as Load;
  const { Marked } = load('marked') as typeof import('marked');
  const terminal = load('marked-terminal') as typeof import('marked-terminal');
  const Table = load('cli-table3') as typeof import('cli-table3');
  const wrapAnsi = (load('wrap-ansi') as { default: (text: string, columns: number, options: object) => string }).default;
  const room = Math.max(20, width);
  const options = { width: room, reflowText: true, tab: BLOCK_INDENT.length, showSectionPrefix: false };
  // marked-terminal's own helpers, from an instance of its renderer: the list layout and the text
  // transform (colons inside code spans, entities, emoji) its block renderers apply.
  const helpers = new terminal.default(options as ConstructorParameters<typeof terminal.default>[0]) as unknown as {
    o: {
      list: (body: string, ordered: boolean, indent: string) => string;
      paragraph: (text: string) => string;
      heading: (text: string) => string;
      firstHeading: (text: string) => string;
    };
    transform: (text: string) => string;
    parser: unknown;
    options: unknown;
    blockquote: (token: Tokens.Blockquote) => string;
  };
  const listStarts: number[] = [];
  // The columns each enclosing list (its indent and widest marker) or quote takes from the prose inside it.
  const frames: number[] = [];
  const proseWidth = (): number => room - frames.reduce((sum, n) => sum + n, 0);
  const marked = new Marked();
  // marked-terminal's types lag behind marked's extension type; the runtime contract is the documented one.
  const extension = terminal.markedTerminal({
    ...options,
    list: (body: string, ordered: boolean, indent: string) => {
      // Called once the list's items are rendered: its frame closes.
      frames.pop();
      return numberFrom(helpers.o.list(body, ordered, indent), listStarts.pop() ?? 1);
    },
  } as Parameters<typeof terminal.markedTerminal>[0]);
  marked.use(extension as unknown as MarkedExtension);
  marked.use({
    renderer: {
      // A tight list item's text holds inline tokens: render them, filled to the room the item has (`false`
      // hands plain text to marked-terminal). The item applies marked-terminal's text transform again, so
      // what it would change a second time (an '&', a ':') is given back in the form it undoes.
      text(token) {
        if (!('tokens' in token && token.tokens)) return false;
        const text = reflowProse(helpers.transform(this.parser.parseInline(token.tokens)), proseWidth());
        return text.replace(/&/g, '&amp;').replace(/:/g, COLON_REPLACER);
      },
      // Paragraphs and headings are filled here by display width (marked-terminal counts characters, so a
      // Chinese line came out twice too wide and lines started with "。").
      paragraph(token) {
        const text = helpers.transform(this.parser.parseInline(token.tokens));
        return `${helpers.o.paragraph(reflowProse(text, proseWidth()))}\n\n`;
      },
      heading(token) {
        const text = reflowProse(helpers.transform(this.parser.parseInline(token.tokens)), proseWidth());
        return `${token.depth === 1 ? helpers.o.firstHeading(text) : helpers.o.heading(text)}\n\n`;
      },
      blockquote(token) {
        frames.push(BLOCK_INDENT.length);
        try {
          helpers.parser = this.parser;
          helpers.options = this.options;
          return helpers.blockquote(token);
        } finally {
          frames.pop();
        }
      },
      // A block without a language is shown as written: guessing one tries every grammar (~0.1 s a call) and
      // often colours logs and shell output at random.
      code(token) {
        if (!token.lang) token.lang = 'plaintext';
        return false;
      },
      // Nested lists finish first, so their starts are taken from the stack before their parent's.
      list(token) {
        const start = token.ordered && typeof token.start === 'number' ? token.start : 1;
        listStarts.push(start);
        const marker = token.ordered ? `${start + token.items.length - 1}. `.length : 2;
        frames.push(BLOCK_INDENT.length + marker);
        return false;
      },
      table(token) {
        const cell = (c: Tokens.TableCell): string => helpers.transform(this.parser.parseInline(c.tokens));
        return fittedTable(
          Table,
          wrapAnsi,
          token.header.map(cell),
          token.rows.map((row) => row.map(cell)),
          room,
        );
      },
    },
  });
  const render = (markdown: string): string => {
    frames.length = 0;
    listStarts.length = 0;
    return String(marked.parse(markdown, { async: false })).replace(/\n+$/, '\n');
  };
  return {
    render,
    blocks: (markdown) => marked.lexer(markdown).map(toBlock),
    codeLines: ({ marker, info }, lines) => {
      // The block's own fence: none of its lines closes it.
      const out = render(`${marker}${info}\n${lines.join('\n')}\n${marker}\n`)
        .replace(/\n$/, '')
        .split('\n');
      // One rendered line per code line; anything else (a renderer that merged lines) falls back to the plain text.
      return out.length === lines.length ? out : lines.map((l) => `${BLOCK_INDENT}${l}`);
    },
  };
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^\n]*)/;

function toBlock(token: Token): MarkdownBlock {
  const block: MarkdownBlock = { type: token.type, raw: token.raw };
  if (token.type === 'list') block.items = (token as Tokens.List).items.map((item) => item.raw);
  if (token.type === 'code') {
    const open = FENCE_OPEN.exec(token.raw);
    if (open) block.fence = { marker: open[1]!, info: open[2]!.trim() };
  }
  return block;
}

/** marked-terminal numbers every ordered list from 1: shift the top-level numbers to start at `start`. */
function numberFrom(body: string, start: number): string {
  if (start === 1) return body;
  return body.replace(/^(\d+)\. /gm, (_, n: string) => `${Number(n) + start - 1}. `);
}

/**
 * A table that fits `width` columns: each column gets its natural width when all fit, else narrow columns
 * keep theirs and the wide ones share what is left; cell text wraps between words (a word longer than its
 * column is cut), with display widths, so Chinese text wraps between characters.
 */
function fittedTable(
  Table: typeof import('cli-table3'),
  wrapAnsi: (text: string, columns: number, options: object) => string,
  head: string[],
  rows: string[][],
  width: number,
): string {
  const count = head.length;
  const natural = new Array<number>(count).fill(1);
  for (const row of [head, ...rows]) row.forEach((c, i) => (natural[i] = Math.max(natural[i]!, ...c.split('\n').map(displayWidth))));
  // Each column has a border on its left and one padding space on each side; the last border closes the row.
  const widths = fitColumns(natural, width - 1 - 3 * count);
  const wrap = (text: string, i: number): string => wrapAnsi(text, widths[i]!, { hard: true, trim: true });
  const table = new Table({ head: head.map(wrap), colWidths: widths.map((w) => w + 2), wordWrap: false });
  for (const row of rows) table.push(row.map(wrap));
  return `${table.toString()}\n\n`;
}

/** Column widths adding up to at most `room` (never below `min` each): narrow columns first, the rest shared. */
export function fitColumns(natural: readonly number[], room: number, min = 6): number[] {
  const widths = natural.slice();
  if (natural.reduce((a, b) => a + b, 0) <= room) return widths;
  let open = natural.map((_, i) => i);
  let left = room;
  for (;;) {
    const share = Math.floor(left / open.length);
    const fits = open.filter((i) => natural[i]! <= share);
    if (fits.length === 0) {
      open.forEach((i, k) => (widths[i] = share + (k < left - share * open.length ? 1 : 0)));
      break;
    }
    for (const i of fits) left -= natural[i]!;
    open = open.filter((i) => natural[i]! > share);
    if (open.length === 0) break;
  }
  return widths.map((w, i) => Math.max(w, Math.min(min, natural[i]!)));
}
