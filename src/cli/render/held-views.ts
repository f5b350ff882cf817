import type { RefusedCandidate, SuggestedCandidate } from '../../memory/types.js';
import { shortCandidateId } from '../../shared/ids.js';
import { safeLabel } from '../../shared/terminal-text.js';
import { type Surface, invocation } from '../commands/command-output.js';
import { literal } from '../output.js';
import { KIND_LABEL, reasonText } from './memory-views.js';
import { quotedData } from './notices.js';
import { formatTime } from './time.js';

const TITLE_CHARS = 60;
const QUOTE_CHARS = 80;

/** `/memory keep s7k2mq · /memory dismiss s7k2mq`: what a person types to decide on a held candidate. */
function decideCommands(candidateId: string, surface: Surface): string {
  const short = safeLabel(shortCandidateId(candidateId));
  return `${invocation(`memory keep ${short}`, surface)} · ${invocation(`memory dismiss ${short}`, surface)}`;
}

/**
 * M-5.7 `memory suggestions`: each candidate the gate held for the user, newest first — its short name, kind,
 * title and the user's words it rests on (one folded, neutralized, clipped line each), why it was held, and
 * the commands that keep or dismiss it.
 */
export function renderSuggestions(suggestions: readonly SuggestedCandidate[], surface: Surface): string {
  if (suggestions.length === 0)
    return (
      'No suggestions. A candidate Memory is unsure how to read (a standing wish asked as a question, a weakened ' +
      'one, …) waits here for you to keep or dismiss it.'
    );
  const lines = ['Held for your decision (newest first): not memories, never in answers, until you keep them.'];
  for (const s of suggestions) {
    const from = s.quote.length > 0 ? ` — from ${quotedData(s.quote, QUOTE_CHARS)}` : '';
    lines.push(
      `  ${safeLabel(shortCandidateId(s.candidateId))}  ${KIND_LABEL[s.kind] ?? s.kind}  ${quotedData(s.title, TITLE_CHARS)}${from}`,
    );
    if (s.content.trim() !== s.title.trim()) lines.push(`    would remember ${quotedData(s.content, QUOTE_CHARS)}`);
    lines.push(`    held because: ${literal(reasonText(s.reason))}`);
    lines.push(`    ${decideCommands(s.candidateId, surface)}   (${formatTime(s.at)}, id ${safeLabel(s.candidateId)})`);
  }
  lines.push(`${suggestions.length} suggestion${suggestions.length === 1 ? '' : 's'}.`);
  return lines.join('\n');
}

/**
 * `memory refused`: the recent refusals with quote and reason, and for each whether `keep` may overrule it
 * (a reading of the words) or never (a provenance refusal, M-5.7).
 */
export function renderRefused(refused: readonly RefusedCandidate[], surface: Surface): string {
  if (refused.length === 0) return 'Nothing was refused. Refused candidates appear here with the reason they were not remembered.';
  const lines = ['Recently refused (newest first): these were not remembered, and why.'];
  for (const r of refused) {
    lines.push(
      `  ${safeLabel(shortCandidateId(r.candidateId))}  ${formatTime(r.at)}  ${KIND_LABEL[r.kind] ?? r.kind}  ${literal(r.title)}`,
    );
    if (r.quote) lines.push(`    “${literal(r.quote)}”`);
    lines.push(`    reason: ${literal(reasonText(r.reason))}`);
    lines.push(
      r.keepable
        ? `    can be kept (you overrule how it was read): ${decideCommands(r.candidateId, surface)}`
        : '    cannot be kept: the reason is not how your words read (provenance, form); only a new statement of yours can form it',
    );
  }
  lines.push('A new explicit statement ("from now on …", "以后…", "we decided …") can form the memory.');
  return lines.join('\n');
}
