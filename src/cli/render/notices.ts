import type { MemoryChange } from '../../memory/types.js';
import { shortCandidateId } from '../../shared/ids.js';
import { safeLabel } from '../../shared/terminal-text.js';
import { clip } from '../../shared/text.js';
import { type Surface, invocation } from '../commands/command-output.js';
import { KIND_LABEL } from './memory-views.js';

/** Notice lines shown at once, at most; the rest are counted. */
export const NOTICE_LINES = 8;
const TITLE_CHARS = 60;
const QUOTE_CHARS = 80;

/** Stored text as one short quoted line of data: whitespace folded, neutralized (M-9.9), clipped. */
export function quotedData(text: string, max: number): string {
  return `"${safeLabel(clip(text.replace(/\s+/gu, ' ').trim(), max))}"`;
}

function memoryCommand(commands: Surface, sub: string, id: string): string {
  return invocation(`memory ${sub} ${safeLabel(id)}`, commands);
}

/**
 * M-11.2: one line per change, saying what was done, with the id, the title and the user's quote, and how
 * to undo it (forget) or keep it (keep / dismiss a suggestion). Plain text: the caller dims it.
 */
export function noticeLine(change: MemoryChange, commands: Surface): string {
  const kind = KIND_LABEL[change.kind] ?? change.kind;
  const from = change.quote.length > 0 ? ` — from ${quotedData(change.quote, QUOTE_CHARS)}` : '';
  const id = safeLabel(change.id);
  const title = quotedData(change.title, TITLE_CHARS);
  const forget = memoryCommand(commands, 'forget', change.id);
  switch (change.action) {
    case 'created':
      return `remembered ${kind} ${id} ${title}${from} · ${forget}`;
    case 'revised':
      return `updated ${kind} ${id} ${title}${from} · ${forget}`;
    case 'superseded': {
      const old = change.replaced;
      const before = old ? `${safeLabel(old.id)} ${quotedData(old.title, TITLE_CHARS)} by ` : '';
      return `replaced ${kind} ${before}${id} ${title}${from} · ${forget}`;
    }
    case 'suggested': {
      // Held candidates are typed back by their short name (the full id works too).
      const short = shortCandidateId(change.id);
      const keep = memoryCommand(commands, 'keep', short);
      return `suggestion ${short} ${title}${from} · ${keep} · ${memoryCommand(commands, 'dismiss', short)}`;
    }
  }
}

/** The notice lines for a set of changes, oldest first; beyond the first few, one line counts the rest. */
export function noticeLines(changes: readonly MemoryChange[], commands: Surface): string[] {
  const lines = changes.slice(0, NOTICE_LINES).map((c) => noticeLine(c, commands));
  const more = changes.length - NOTICE_LINES;
  if (more > 0) lines.push(`… and ${more} more — ${invocation('memory list', commands)}`);
  return lines;
}
