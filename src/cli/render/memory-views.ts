import { UNTRUSTED_PREFIX, isUntrustedReason } from '../../shared/data-trust.js';
import type { DrainResult, MemoryDetail, MemoryItemSummary, MemoryKind, MemoryStatus } from '../../memory/types.js';
import { literal } from '../output.js';
import { type Surface, invocation } from '../commands/command-output.js';
import { renderTable } from './table.js';
import { formatTime } from './time.js';

export const KIND_LABEL: Record<MemoryKind, string> = {
  user_preference: 'preference',
  project_decision: 'decision',
  discussion_context: 'discussion',
};

/** How to get out of a degraded Memory, said everywhere it matters. */
export function degradedHelp(reason: string): string {
  // A data folder that is not the user's own: the way out is in the reason (move it aside), never a clear.
  if (isUntrustedReason(reason))
    return [
      `Memory is not used: ${reason.slice(UNTRUSTED_PREFIX.length)}`,
      'Ordinary chat is paused until then; repair requests still work. Nothing in .autopatch-j/ was read or changed.',
    ].join('\n');
  return [
    `Memory is degraded: ${reason}`,
    'Ordinary chat is paused until it is healthy again; repair requests and the memory commands still work.',
    '  diagnose:  autopatch-j memory status   ·   keep a copy:  autopatch-j memory export',
    '  recover:   autopatch-j memory clear --confirm   (starts an empty Memory; a damaged file is moved aside, not deleted)',
  ].join('\n');
}

export function renderStatus(status: MemoryStatus, options: { debug: boolean; repoRoot: string; surface?: Surface }): string {
  const lines: string[] = [];
  if (status.health === 'degraded') lines.push(degradedHelp(status.degradedReason ?? 'unknown reason'), '');
  else lines.push('Memory: healthy');
  const db = status.dbPath.startsWith(options.repoRoot) ? status.dbPath.slice(options.repoRoot.length + 1) : status.dbPath;
  lines.push(
    `  database       ${db}${
      status.schemaVersion !== null
        ? ` (schema v${status.schemaVersion}${status.generation !== null ? `, generation ${status.generation}` : ''})`
        : ''
    }`,
  );
  lines.push(`  active thread  ${status.activeThreadId ?? '(none)'}`);
  const items = status.items;
  lines.push(
    `  memories       ${items.user_preference} preference(s) · ${items.project_decision} decision(s) · ` +
      `${items.discussion_context} discussion item(s) in this thread`,
  );
  const t = status.turns;
  lines.push(`  turns          ${t.completed} completed · ${t.failed} failed · ${t.interrupted} interrupted · ${t.open} open`);
  lines.push(
    `  jobs           ${jobStates(status.jobs)
      .map(([state, n]) => `${n} ${state}`)
      .join(' · ')}`,
  );
  const u = status.unresolved;
  if (u.oldestCreatedAt !== null)
    lines.push(`  unresolved     oldest job waiting since ${formatTime(u.oldestCreatedAt)} · most attempts ${u.maxAttempts}`);
  for (const f of u.failed)
    lines.push(
      `  failed job     ${f.id} (${f.kind}, ${f.attempts} attempt(s)): ` +
        `${literal(f.reason.split('\n')[0]!.slice(0, 160))} — memory retry ${f.id}`,
    );
  if (status.backgroundError !== null)
    lines.push(`  background     the scheduler keeps failing: ${literal(status.backgroundError.slice(0, 200))}`);
  const filtered = Object.entries(status.filteredCandidates.byReason).sort((a, b) => b[1] - a[1]);
  lines.push(
    `  filtered       ${status.filteredCandidates.total} candidate(s) refused by the checks` +
      `${filtered.length > 0 ? ` (${filtered.map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}`,
  );
  if (status.suggestions > 0) {
    const listing = invocation('memory suggestions', options.surface ?? 'session');
    lines.push(`  suggestions    ${status.suggestions} held for your decision — ${listing} lists them (keep or dismiss)`);
  }
  lines.push(`  last success   ${formatTime(status.lastSucceededAt)}`);
  if (status.lastError === null) lines.push('  last error     none');
  else if (options.debug)
    lines.push(
      '  last error     (RAW, as persisted)',
      ...literal(status.lastError)
        .split('\n')
        .map((l) => `    ${l}`),
    );
  else lines.push('  last error     a background job failed and will be retried; run with AUTOPATCH_DEBUG=true to see the RAW error');
  for (const warning of status.warnings) lines.push(`  warning        ${literal(warning)}`);
  return lines.join('\n');
}

/**
 * One vocabulary for job states: the words of `memory status` text are the keys of `memory status --json`
 * (`jobs.pending`, `jobs.leased`, `jobs.retryWait`, …), in the order a job moves through them.
 */
export function jobStates(jobs: MemoryStatus['jobs']): [string, number][] {
  const counts = jobs as unknown as Record<string, number>;
  const order = ['pending', 'leased', 'retryWait', 'succeeded', 'succeededNoOutput', 'failed'];
  const known = order.filter((k) => typeof counts[k] === 'number');
  const extra = Object.keys(counts).filter((k) => !order.includes(k) && typeof counts[k] === 'number');
  return [...known, ...extra].map((k) => [k, counts[k]!]);
}

export function renderList(items: MemoryItemSummary[], width?: number): string {
  if (items.length === 0) return 'No memories yet. They appear after you state a preference or confirm a decision in ordinary chat.';
  const rows = items.map((i) => [i.id, KIND_LABEL[i.kind], literal(i.title), formatTime(i.updatedAt)]);
  return (
    `${renderTable(['ID', 'KIND', 'TITLE', 'UPDATED'], rows, [12, 10, 48, 19], width, 2)}\n` +
    `${items.length} memor${items.length === 1 ? 'y' : 'ies'}.`
  );
}

/** Plain words for the refusal reasons a person is most likely to meet. */
const REASON_TEXT: Record<string, string> = {
  no_speech_act: 'no explicit "from now on / we decided" in your words',
  temporary: 'asked for this answer only',
  question: 'a question, not a decision',
  hypothetical: 'hypothetical',
  example: 'an example',
  undecided: 'not decided yet',
  speculation: 'a guess, not a decision',
  retracted: 'taken back right after',
  negated: 'negated',
  third_party: "someone else's decision or words",
  other_project: 'about another or an earlier project',
  quoted_speech: 'quoted text',
  code_or_tool_output: 'pasted code, log or tool output',
  description: 'describes how software behaves',
  one_off_request: 'a one-off task',
  code_fact: 'a fact about the code, not discussion',
  assistant_only: 'only the assistant said it',
  confirmation_without_proposal: 'a confirmation without the proposal right before it',
  no_content_anchor: 'the summary does not say what you said',
  quote_not_found: 'the quote is not in the conversation',
  no_candidate: 'the model proposed no memory from it',
  rejected_by_consolidation: 'consolidation found nothing to add',
  suppressed_evidence: 'it rests on the words of a forgotten memory',
  polite_request: 'a standing wish asked as a question',
  weakened: 'the wish is weakened ("maybe", "可能")',
  sarcasm: 'it may be meant the other way round',
  paste_nearby: 'pasted material is right next to it',
  correction: 'it corrects something said just before',
};

/** A refusal reason with its plain words, when it has some: `third_party (someone else's decision or words)`. */
export function reasonText(reason: string): string {
  return REASON_TEXT[reason] ? `${reason} (${REASON_TEXT[reason]})` : reason;
}

export function renderDetail(detail: MemoryDetail): string {
  const lines = [
    `${detail.id}  ${KIND_LABEL[detail.kind]}  ${detail.status}${detail.nonFactual ? '  (context, not a fact)' : ''}`,
    `title      ${literal(detail.title)}`,
    `content    ${literal(detail.content)}`,
  ];
  if (detail.synopsis) lines.push(`synopsis   ${literal(detail.synopsis)}`);
  if (detail.aliases.length > 0) lines.push(`aliases    ${literal(detail.aliases.join(', '))}`);
  if (detail.keywords.length > 0) lines.push(`keywords   ${literal(detail.keywords.join(', '))}`);
  if (detail.threadId) lines.push(`thread     ${detail.threadId}`);
  if (detail.supersedes) lines.push(`replaces   ${detail.supersedes}`);
  if (detail.supersededBy) lines.push(`replaced by ${detail.supersededBy}`);
  lines.push(`updated    ${formatTime(detail.updatedAt)} (revision ${detail.revision})`);
  if (detail.revisions.length > 1) {
    lines.push('', 'revisions');
    for (const r of detail.revisions)
      lines.push(`  r${r.revision}  ${formatTime(r.createdAt)}  ${r.status.padEnd(10)}  ${literal(r.title)}`);
  }
  lines.push('', `sources (${detail.sources.length})`);
  for (const s of detail.sources) {
    lines.push(`  ${s.role} turn ${s.sequence ?? '?'} (${s.turnId}) · ${formatTime(s.turnCreatedAt)}`);
    lines.push(`    “${literal(s.quote)}”`);
  }
  return lines.join('\n');
}

export function renderDrainWarnings(result: DrainResult): string[] {
  return result.warnings.map(
    (w) =>
      `warning: memory ${w.kind} job ${w.jobId} did not finish and will be retried` +
      `${w.nextRetryAt ? ` after ${formatTime(w.nextRetryAt)}` : ''}: ${literal(w.message.split('\n')[0]!.slice(0, 200))}`,
  );
}
