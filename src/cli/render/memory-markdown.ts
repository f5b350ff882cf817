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
 * The active preferences and decisions with their quotes, oldest first (a new memory is added at the end,
 * so the reviewed diff stays small). Read through the manager: list, then show for the sources.
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

/** One line: breaks folded, and the characters that would end the bold title escaped. */
function titleLine(text: string): string {
  return data(text)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/([\\*])/g, '\\$1');
}

/** Every line indented under the list item, so nothing in a memory can start a heading or a new entry. */
function indented(text: string, prefix: string): string[] {
  return data(text)
    .split('\n')
    .map((line) => (line.trim().length === 0 ? prefix.trimEnd() : `${prefix}${line}`));
}

function renderEntry(entry: DecisionEntry): string[] {
  const lines = [`- **${titleLine(entry.title)}**`, `  \`${entry.id}\` · ${entry.kind} · ${entry.date}`, ''];
  lines.push(...indented(entry.content, '  '));
  for (const quote of entry.quotes) lines.push('', ...indented(quote, '  > '));
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

/** The body of the AGENTS.md block (between the markers). */
export function renderAgentsBlock(entries: DecisionEntry[]): string {
  return [
    "<!-- Written by `autopatch-j memory export --agents-md` from this project's Memory; the block is replaced on each export. -->",
    '',
    renderDecisionsMarkdown(entries, 2).trimEnd(),
  ].join('\n');
}
