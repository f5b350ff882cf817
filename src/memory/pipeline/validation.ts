import { contentTerms, foldCase, isCjk } from '../../shared/text.js';
import type { SourceRole, TurnRecord, ValidCandidate, VerifiedSource } from '../types.js';
import type { CandidateAnswer } from './contracts.js';
import { locateQuote } from './quote-location.js';
import { overruledByRemember } from './remember-act.js';
import {
  type GateReason,
  inCodeOrOutput,
  isBareConfirmation,
  isProposal,
  judgeConfirmation,
  judgeDiscussion,
  judgeStatement,
  stripMarkers,
} from './gate/gate.js';

export { inCodeOrOutput } from './gate/gate.js';

/**
 * Program-side validation of Stage 1 candidates (M-5.3): the model proposes, the program decides.
 *
 * A preference or decision must rest on the user's own words: an exact quote of a user turn of the batch
 * whose sentence carries an explicit speech act ("以后/默认/from now on…", "决定/采用/we decided…") and
 * whose quote carries content the candidate is about. Questions, hypotheticals, examples, undecided and
 * negated statements, requests for this answer only, pasted code or tool output, and assistant-only
 * claims never qualify. A short confirmation ("同意 / sounds good") supports a decision only together with
 * the assistant proposal of the turn right before it. Discussion context needs verified quotes only, and
 * is stored as non-factual and bound to the batch's thread.
 */

export type RejectReason =
  | GateReason
  | 'contract'
  | 'unknown_turn'
  | 'wrong_role'
  | 'quote_not_found'
  | 'quote_too_short'
  | 'adjacent_turn_not_allowed'
  | 'confirmation_without_proposal'
  | 'no_content_anchor'
  | 'duplicate_candidate'
  | 'suppressed_evidence';

/** What validation reads of a turn: a turn record as the store returns it. */
export type ContextTurn = Pick<TurnRecord, 'id' | 'threadId' | 'sequence' | 'state' | 'userText' | 'assistantText'>;

export interface ValidationContext {
  threadId: string;
  /** The turns of the batch, by id. */
  turns: ReadonlyMap<string, ContextTurn>;
  /** The completed turn just before the batch, for a confirmation's proposal. */
  adjacent: ContextTurn | null;
}

export type { ValidCandidate, VerifiedSource } from '../types.js';

export type ValidationResult = { ok: true; candidate: ValidCandidate } | { ok: false; reason: RejectReason; detail: string };

interface LocatedSource {
  turn: ContextTurn;
  role: SourceRole;
  quote: string;
  text: string;
  /** UTF-16 offsets into `text`. */
  begin: number;
  end: number;
  fromAdjacent: boolean;
}

const reject = (reason: RejectReason, detail: string): ValidationResult => ({ ok: false, reason, detail });

export function validateCandidate(candidate: CandidateAnswer, context: ValidationContext): ValidationResult {
  const located: LocatedSource[] = [];
  const seen = new Set<string>();
  for (const source of candidate.sources) {
    const key = `${source.turn_id}\u0000${source.role}\u0000${source.quote}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const found = locate(source.turn_id, source.role, source.quote, context);
    if ('reason' in found) return reject(found.reason, found.detail);
    located.push(found);
  }

  const verified = (): VerifiedSource[] =>
    located.map((s) => ({
      turnId: s.turn.id,
      role: s.role,
      quote: s.quote,
      start: Array.from(s.text.slice(0, s.begin)).length,
    }));
  const accept = (): ValidationResult => ({
    ok: true,
    candidate: {
      kind: candidate.kind,
      title: candidate.title.trim(),
      content: candidate.content.trim(),
      aliases: [...new Set(candidate.aliases.map((a) => a.trim()).filter((a) => a.length > 0))],
      nonFactual: candidate.kind === 'discussion_context',
      threadId: context.threadId,
      sources: verified(),
    },
  });

  if (candidate.kind === 'discussion_context') {
    const adjacent = located.find((s) => s.fromAdjacent);
    if (adjacent) return reject('adjacent_turn_not_allowed', 'discussion context cites a turn outside the batch');
    // M-5.6: at least one user quote, and a statement of a code fact is not discussion.
    const problem = judgeDiscussion(located.filter((s) => s.role === 'user').map((s) => ({ text: s.text, begin: s.begin, end: s.end })));
    return problem ? reject(problem.reason, problem.detail) : accept();
  }

  // The adjacent previous turn may only lend a decision its assistant proposal.
  for (const s of located) {
    if (s.fromAdjacent && (s.role !== 'assistant' || candidate.kind !== 'project_decision')) {
      return reject('adjacent_turn_not_allowed', 'only a decision may cite the previous turn, and only its assistant proposal');
    }
  }
  const userSources = located.filter((s) => s.role === 'user');
  if (userSources.length === 0) return reject('assistant_only', 'no quote of the user supports it');

  const anchorTerms = candidateTerms(candidate);
  let firstProblem: { reason: RejectReason; detail: string } | null = null;
  for (const source of userSources) {
    const problem = assessStatement(source, candidate.kind, anchorTerms, context);
    if (problem === null) return accept();
    firstProblem ??= problem;
  }

  if (candidate.kind === 'project_decision') {
    for (const source of userSources) {
      const verdict = judgeConfirmation(source.text, source.begin, source.end);
      if (!verdict.confirms) {
        if (verdict.problem) return reject(verdict.problem.reason, verdict.problem.detail);
        continue;
      }
      if (hasAdjacentProposal(source, located, anchorTerms, context)) return accept();
      return reject('confirmation_without_proposal', 'a short confirmation needs the assistant proposal of the turn right before it');
    }
  }
  return reject(firstProblem!.reason, firstProblem!.detail);
}

function locate(
  turnId: string,
  role: SourceRole,
  quote: string,
  context: ValidationContext,
): LocatedSource | { reason: RejectReason; detail: string } {
  let turn = context.turns.get(turnId) ?? bySequence(turnId, context);
  let fromAdjacent = false;
  if (!turn && context.adjacent?.id === turnId) {
    turn = context.adjacent;
    fromAdjacent = true;
  }
  if (!turn) return { reason: 'unknown_turn', detail: `turn ${turnId} is not part of this batch` };
  // One character can be a whole answer ("好", "行"): a quote needs one letter or digit, not two.
  if (!/[\p{L}\p{N}\p{So}]/u.test(quote)) return { reason: 'quote_too_short', detail: 'quote has no content' };
  const text = role === 'user' ? turn.userText : turn.assistantText;
  // M-5.5: located in the RAW text despite form slips; provenance keeps the exact RAW span.
  const spans = text === null ? [] : locateQuote(text, quote);
  if (text === null || spans.length === 0) {
    const other = role === 'user' ? turn.assistantText : turn.userText;
    if (other !== null && locateQuote(other, quote).length > 0) {
      return { reason: 'wrong_role', detail: `quote belongs to the ${role === 'user' ? 'assistant' : 'user'} text of ${turn.id}` };
    }
    return { reason: 'quote_not_found', detail: `quote is not verbatim in the ${role} text of ${turn.id}` };
  }
  // The first occurrence outside pasted code or tool output, else the first one.
  const span = spans.find((s) => !inCodeOrOutput(text, s.begin)) ?? spans[0]!;
  return { turn, role, quote: text.slice(span.begin, span.end), text, begin: span.begin, end: span.end, fromAdjacent };
}

/** A model that cites the batch's sequence numbers ("turn_id": 3) means the turn with that sequence. */
function bySequence(turnId: string, context: ValidationContext): ContextTurn | undefined {
  if (!/^\d{1,9}$/u.test(turnId)) return undefined;
  const sequence = Number(turnId);
  for (const turn of context.turns.values()) if (turn.sequence === sequence) return turn;
  return undefined;
}

/**
 * Terms of what the candidate says, for the content-anchor check. Speech-act words need no stripping here:
 * the quote side is stripped, so a marker alone can never make the anchor.
 */
function candidateTerms(candidate: CandidateAnswer): Set<string> {
  return new Set(contentTerms(prepare([candidate.title, candidate.content, ...candidate.aliases].join('\n')), 1024));
}

function prepare(text: string): string {
  return foldCase(text)
    .replace(/[\u2018\u2019\u02bc]/gu, "'")
    .replace(/[\u201c\u201d]/gu, '"');
}

/**
 * The content anchor: the candidate must say what the quote says, checked by shared content terms. When the
 * two are written in different scripts (a Chinese quote summarized in English, or the reverse) words cannot
 * be compared, so a quote with content of its own is enough there.
 */
function anchored(quoteTerms: readonly string[], candidate: ReadonlySet<string>): boolean {
  if (quoteTerms.some((t) => candidate.has(t))) return true;
  const quoteCjk = quoteTerms.some((t) => isCjk(t[0]!));
  const quoteLatin = quoteTerms.some((t) => !isCjk(t[0]!));
  const candidateTerms = [...candidate];
  const candidateCjk = candidateTerms.some((t) => isCjk(t[0]!));
  const candidateLatin = candidateTerms.some((t) => !isCjk(t[0]!));
  return (quoteCjk && !quoteLatin && !candidateCjk) || (quoteLatin && !quoteCjk && !candidateLatin);
}

/** Why a user statement does not support a preference/decision, or null when it does. */
function assessStatement(
  source: LocatedSource,
  kind: 'user_preference' | 'project_decision',
  anchorTerms: ReadonlySet<string>,
  context: ValidationContext,
): { reason: RejectReason; detail: string } | null {
  const problem = judgeStatement(source.text, source.begin, source.end, kind, nextUserText(source.turn, context));
  // M-5.7: an explicit `/remember` is the user's standing act; only who speaks still counts.
  if (problem && !overruledByRemember(source.turn.userText, source.end, kind, problem.reason)) return problem;
  const quoteTerms = contentTerms(stripMarkers(prepare(source.quote)), 512);
  if (quoteTerms.length === 0) return { reason: 'no_content_anchor', detail: 'the quote holds a speech act but no content' };
  if (!anchored(quoteTerms, anchorTerms)) {
    return { reason: 'no_content_anchor', detail: 'the candidate does not say what the quote says' };
  }
  return null;
}

/** The user text of the batch turn right after this one, where a retraction may stand. */
function nextUserText(turn: ContextTurn, context: ValidationContext): string | null {
  for (const t of context.turns.values()) {
    if (t.threadId === turn.threadId && t.sequence === turn.sequence + 1) return t.userText;
  }
  return null;
}

/** The assistant proposal of the turn right before the confirming turn, with a proposal signal and content. */
function hasAdjacentProposal(
  confirmation: LocatedSource,
  located: readonly LocatedSource[],
  anchorTerms: ReadonlySet<string>,
  context: ValidationContext,
): boolean {
  const bare = isBareConfirmation(confirmation.text);
  return located.some((s) => {
    if (s.role !== 'assistant') return false;
    if (s.turn.threadId !== context.threadId || s.turn.sequence !== confirmation.turn.sequence - 1) return false;
    if (s.turn.state !== 'completed') return false;
    // A one-word confirmation answers only what the answer ended with.
    if (!isProposal(s.text, s.begin, s.end, bare)) return false;
    const terms = contentTerms(stripMarkers(prepare(s.quote)), 512);
    return terms.length > 0 && anchored(terms, anchorTerms);
  });
}
