import type { MemoryManager } from '../../memory/manager.js';
import type { MemoryDetail, MemoryKind } from '../../memory/types.js';
import { safeTerminalText } from '../../shared/terminal-text.js';
import type { BlockMarkers } from '../../workspace/marked-block.js';

/**
 * The active preferences and decisions as Markdown people review in a pull request: one entry per memory
 * with its id, kind, title, content, the user's quoted words and the date. No discussion context and no
 * other RAW text (no excerpts, no assistant words). The same Memory gives the same bytes, so writing it
 * twice changes nothing.
 */

/** The block `memory export --agents-md` owns inside AGENTS.md. */
export const MEMORY_BLOCK: BlockMarkers = {
  start: '<!-- autopatch-j:memory:start -->',
  end: '<!-- autopatch-j:memory:end -->',
};

/** One exported memory. */
export interface DecisionEntry {
  id: string;
  kind: Exclude<MemoryKind, 'discussion_context'>;
  title: string;
  content: string;
  /** The user's own words the memory comes from (every revision's), verbatim. */
  quotes: string[];
  /** YYYY-MM-DD (UTC) of the memory's last change. */
  date: string;
}

const SECTIONS: { kind: DecisionEntry['kind']; heading: string }[] = [
  { kind: 'project_decision', heading: 'Project decisions' },
  { kind: 'user_preference', heading: 'User preferences' },
];

const DESCRIPTION =
  'The preferences and project decisions the user confirmed in conversations with autopatch-j, each with the ' +
  "user's own words. Memory is not source evidence: the code, its configuration and the current instruction win.";

function entryOf(detail: MemoryDetail): DecisionEntry {
  const quotes = [...new Set(detail.sources.filter((s) => s.role === 'user').map((s) => s.quote))];
  return {
    id: detail.id,
    kind: detail.kind as DecisionEntry['kind'],
    title: detail.title,
    content: detail.content,
    quotes,
    date: new Date(detail.updatedAt).toISOString().slice(0, 10),
  };
}

/**
 * The active preferences and decisions with their quotes, oldest first (the sections of each kind keep
 * that order, so a new memory is added at the end of its section and the reviewed diff stays small). Read
 * through the manager: list, then show for the sources.
 */
export function decisionEntries(memory: MemoryManager): DecisionEntry[] {
  const details = memory
    .list()
    .filter((item) => item.kind !== 'discussion_context')
    .map((item) => memory.show(item.id))
    .filter((detail) => detail.status === 'active' && detail.kind !== 'discussion_context');
  details.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return details.map(entryOf);
}

/**
 * Stored text as Markdown data: line ends as `\n`, other controls made visible, and HTML comment marks
 * broken so no memory can end the marked block or hide text from a reviewer.
 */
function data(text: string): string {
  return safeTerminalText(text.replace(/\r\n?/g, '\n')).replace(/<!--/g, '&lt;!--').replace(/-->/g, '--&gt;');
}

/**
 * One line of inline data: breaks folded, and every character that could start inline markup (emphasis,
 * code, a link, an image, HTML, an entity, strikethrough, a backslash escape) escaped with a backslash, as
 * are the `:` of `scheme://`, the `.` of `www.` and an `@` between words (GitHub links bare URLs and
 * addresses), so the bold title reads exactly as stored and nothing in it renders as markup or a link.
 */
function titleLine(text: string): string {
  return data(text)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/([\\`*_[\]<>&~!])/g, '\\$1')
    .replace(/([a-z][a-z0-9+.-]*):(?=\/\/)/gi, '$1\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/(?<=\w)@(?=\w)/g, '\\@');
}

/**
 * Stored text as a fenced code block under the list item (each line after `prefix`): whatever it holds — a
 * `> …` line, a `# …` line, a list, HTML — renders as the text itself, never as a heading, a quote of the
 * user or a new entry. The fence is longer than any run of backticks in the text, so nothing closes it early.
 */
function fenced(text: string, prefix: string): string[] {
  const lines = data(text).split('\n');
  const longest = Math.max(2, ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  const fence = '`'.repeat(longest + 1);
  const at = (line: string): string => (line.length === 0 ? prefix.trimEnd() : `${prefix}${line}`);
  return [at(`${fence}text`), ...lines.map(at), at(fence)];
}

/** An entry: the bold title, its id, kind and date, its content as data, each quote of the user as a blockquote of data. */
function renderEntry(entry: DecisionEntry): string[] {
  const lines = [`- **${titleLine(entry.title)}**`, `  \`${entry.id}\` · ${entry.kind} · ${entry.date}`, ''];
  lines.push(...fenced(entry.content, '  '));
  for (const quote of entry.quotes) lines.push('', ...fenced(quote, '  > '));
  return lines;
}

/** The entries as Markdown under a heading of the given level (`#` for a file, `##` inside AGENTS.md). */
export function renderDecisionsMarkdown(entries: DecisionEntry[], level = 1): string {
  const h = '#'.repeat(level);
  const lines = [`${h} Project memory (autopatch-j)`, '', DESCRIPTION];
  if (entries.length === 0) lines.push('', 'No active preferences or decisions yet.');
  for (const section of SECTIONS) {
    const of = entries.filter((e) => e.kind === section.kind);
    if (of.length === 0) continue;
    lines.push('', `${h}# ${section.heading}`);
    for (const entry of of) lines.push('', ...renderEntry(entry));
  }
  return `${lines.join('\n')}\n`;
}

const BLOCK_NOTE =
  "<!-- Written by `autopatch-j memory export --agents-md`: each export rewrites the entries of the exporter's Memory, " +
  'keeps the others (they came from teammates) and removes the ones it forgot or replaced. -->';

/** The lines the program owns at the top of the block: the note, the heading and the description. */
function preambleLines(): string[] {
  return [BLOCK_NOTE, '', '## Project memory (autopatch-j)', '', DESCRIPTION];
}

/** The body of the AGENTS.md block (between the markers) for a file that has no block yet. */
export function renderAgentsBlock(entries: DecisionEntry[]): string {
  return mergeAgentsBlock(null, entries, () => false).body;
}

/** What a merge did to the block's entries. */
export interface BlockMerge {
  body: string;
  /** Entries of ids this Memory does not know (a teammate's), kept as they were. */
  kept: number;
  /** Entries of memories this Memory forgot or replaced, taken out. */
  removed: number;
}

type Chunk = { type: 'entry'; lines: string[]; id: string | null } | { type: 'text'; line: string };
interface Section {
  kind: DecisionEntry['kind'] | null;
  heading: string | null;
  chunks: Chunk[];
}

const SECTION_HEADING = /^#{1,6} (Project decisions|User preferences)\s*$/;
const ID_LINE = /^\s+`([^`\s]+)` · (?:project_decision|user_preference)\b/;

/** The block's text as sections of entries (each entry the lines of one list item) and other lines; the preamble dropped. */
function parseBlock(text: string): Section[] {
  const lines = text.split('\n');
  const sections: Section[] = [{ kind: null, heading: null, chunks: [] }];
  let at = lines.findIndex((line) => line.startsWith('- ') || SECTION_HEADING.test(line));
  if (at < 0) return sections;
  while (at < lines.length) {
    const line = lines[at]!;
    const heading = SECTION_HEADING.exec(line);
    if (heading) {
      const kind = SECTIONS.find((s) => s.heading === heading[1])!.kind;
      sections.push({ kind, heading: line, chunks: [] });
      at += 1;
    } else if (line.startsWith('- ')) {
      // A list item: its first line, then every blank or indented line, less the blank lines at its end.
      let end = at + 1;
      while (end < lines.length && (lines[end]!.trim() === '' || /^\s/.test(lines[end]!))) end += 1;
      while (end > at + 1 && lines[end - 1]!.trim() === '') end -= 1;
      const item = lines.slice(at, end);
      sections.at(-1)!.chunks.push({ type: 'entry', lines: item, id: ID_LINE.exec(item[1] ?? '')?.[1] ?? null });
      at = end;
    } else {
      sections.at(-1)!.chunks.push({ type: 'text', line });
      at += 1;
    }
  }
  // The blank lines before a heading or the block's end are the layout's, written again below.
  for (const section of sections) {
    while (section.chunks.length > 0 && isBlank(section.chunks.at(-1)!)) section.chunks.pop();
  }
  return sections;
}

function isBlank(chunk: Chunk): boolean {
  return chunk.type === 'text' && chunk.line.trim() === '';
}

/**
 * The AGENTS.md block with this Memory's active preferences and decisions merged in by memory id (the block
 * is shared: teammates' exports were reviewed and merged into it). An entry whose id this Memory does not
 * know is kept byte for byte, reviewers' edits included; an entry of one of `entries` is rewritten from the
 * Memory where it stands; an entry of a memory this Memory knows but no longer holds active (forgotten,
 * superseded: `knows` says it knows the id) is removed; the rest of `entries` is appended to the section of
 * its kind, oldest first. The program's note, heading and description are written again. Merging the result
 * again with the same Memory gives the same text.
 */
export function mergeAgentsBlock(current: string | null, entries: DecisionEntry[], knows: (id: string) => boolean): BlockMerge {
  const own = new Map(entries.map((e) => [e.id, e]));
  const placed = new Set<string>();
  let kept = 0;
  let removed = 0;
  const sections = current === null ? [] : parseBlock(current);
  for (const section of sections) {
    const chunks: Chunk[] = [];
    for (const chunk of section.chunks) {
      if (chunk.type === 'entry' && chunk.id !== null) {
        const entry = own.get(chunk.id);
        if (entry && !placed.has(entry.id)) {
          placed.add(entry.id);
          chunks.push({ type: 'entry', lines: renderEntry(entry), id: entry.id });
          continue;
        }
        if (entry || knows(chunk.id)) {
          // Retired here (or a second copy): out, with the blank line that separated it.
          removed += 1;
          if (chunks.length > 0 && isBlank(chunks.at(-1)!)) chunks.pop();
          continue;
        }
        kept += 1;
      }
      chunks.push(chunk);
    }
    section.chunks = chunks;
  }
  for (const { kind, heading } of SECTIONS) {
    const added = entries.filter((e) => e.kind === kind && !placed.has(e.id));
    if (added.length === 0) continue;
    let section = sections.find((s) => s.kind === kind);
    if (!section) {
      section = { kind, heading: `### ${heading}`, chunks: [] };
      // Decisions before preferences, as a new block has them.
      const later = sections.findIndex(
        (s) => s.kind !== null && SECTIONS.findIndex((x) => x.kind === s.kind) > SECTIONS.findIndex((x) => x.kind === kind),
      );
      sections.splice(later < 0 ? sections.length : later, 0, section);
    }
    for (const entry of added) section.chunks.push({ type: 'text', line: '' }, { type: 'entry', lines: renderEntry(entry), id: entry.id });
  }
  const lines = preambleLines();
  const live = sections.filter((s) => s.chunks.some((c) => !isBlank(c)));
  if (!live.some((s) => s.chunks.some((c) => c.type === 'entry'))) lines.push('', 'No active preferences or decisions yet.');
  for (const section of live) {
    lines.push('');
    if (section.heading !== null) lines.push(section.heading);
    // A section's first chunk follows its heading after one blank line.
    const chunks = section.chunks.slice(section.chunks.findIndex((c) => !isBlank(c)));
    if (section.heading !== null) lines.push('');
    for (const chunk of chunks) lines.push(...(chunk.type === 'entry' ? chunk.lines : [chunk.line]));
  }
  return { body: lines.join('\n'), kept, removed };
}
