import { contentTerms, foldCase, isCjk } from '../../shared/text.js';
import type { SourceRole, TurnRecord, ValidCandidate } from '../types.js';
import type { CandidateAnswer } from './contracts.js';
import { locateQuote } from './quote-location.js';
import { keptTerms, repairedLine } from './evidence.js';
import {
  type GateReason,
  type StatementKind,
  type Verdict,
  REASON_VERDICT,
  inCodeOrOutput,
  boundConfirmation,
  retractsLater,
  turnsDown,
  isBareConfirmation,
  aboutAnswers,
  isOffer,
  isOfferForNow,
  namesOtherItem,
  isProposal,
  judgeConfirmation,
  hedgedAnswer,
  judgeDiscussion,
  judgeStatement,
  stripMarkers,
} from './gate/gate.js';
import { listedItem } from './gate/items.js';
import { type PartAnswer, answeredParts } from './gate/partial.js';

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
  | 'suppressed_evidence'
  | 'stitched'
  | 'assistant_source'
  | 'unsafe_text';

/**
 * M-5.7: the refusals a user may overrule with `keep` — the program's reading of the words (mood, speaker, text
 * type, time scope, weak evidence). Provenance failures (the quote is not the user's words in this turn) and
 * text the candidate adds to its quotes can never be kept.
 */
export function isKeepable(reason: RejectReason | string): boolean {
  return reason in REASON_VERDICT && reason !== 'assistant_only';
}

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

/**
 * The gate's verdict on one candidate (M-5.7): accepted, held for the user as a suggestion (with its verified
 * quotes), or refused with a reason — keepable when the refusal is a reading of the words, never when it is
 * about provenance.
 */
export type ValidationResult =
  | { ok: true; verdict: 'accept'; candidate: ValidCandidate }
  | { ok: false; verdict: 'suggest'; reason: RejectReason; detail: string; candidate: ValidCandidate }
  | { ok: false; verdict: 'refuse'; reason: RejectReason; detail: string; keepable: boolean; candidate: ValidCandidate | null };

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

interface Finding {
  reason: RejectReason;
  detail: string;
  verdict: Verdict;
}

const refuse = (reason: RejectReason, detail: string): ValidationResult => ({
  ok: false,
  verdict: 'refuse',
  reason,
  detail,
  keepable: false,
  candidate: null,
});

/**
 * Validates one candidate on its own (no I/O, bounded work): a caller may yield between candidates. Every
 * source of a preference or decision passes the gate (M-5.7); quotes of one candidate come from one turn, or
 * from a proposal and its adjacent confirmation; assistant quotes back only a confirmed proposal.
 */
export function validateCandidate(candidate: CandidateAnswer, context: ValidationContext): ValidationResult {
  // M-5.5: the title's form is repaired to one line; control or bidi characters refuse it.
  const title = repairedLine(candidate.title);
  if (title === null) return refuse('unsafe_text', 'title holds control or bidi characters');
  if (title.text.length === 0) return refuse('contract', 'the title is empty once its markup is dropped');
  const located: LocatedSource[] = [];
  const seen = new Set<string>();
  for (const source of candidate.sources) {
    const key = `${source.turn_id}\u0000${source.role}\u0000${source.quote}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const found = locate(source.turn_id, source.role, source.quote, context);
    if ('reason' in found) return refuse(found.reason, found.detail);
    located.push(found);
  }

  const quotes = located.map((s) => s.quote);
  const verified: ValidCandidate = {
    kind: candidate.kind,
    title: title.text,
    content: candidate.content.trim(),
    aliases: keptTerms([...new Set(candidate.aliases)], quotes, title.text).kept,
    nonFactual: candidate.kind === 'discussion_context',
    threadId: context.threadId,
    sources: located.map((s) => ({
      turnId: s.turn.id,
      role: s.role,
      quote: s.quote,
      start: Array.from(s.text.slice(0, s.begin)).length,
    })),
  };
  const verdictOf = (finding: Finding | null): ValidationResult => {
    if (finding === null) return { ok: true, verdict: 'accept', candidate: verified };
    if (finding.verdict === 'suggest')
      return { ok: false, verdict: 'suggest', reason: finding.reason, detail: finding.detail, candidate: verified };
    const keepable = isKeepable(finding.reason);
    return {
      ok: false,
      verdict: 'refuse',
      reason: finding.reason,
      detail: finding.detail,
      keepable,
      candidate: keepable ? verified : null,
    };
  };

  if (candidate.kind === 'discussion_context') {
    const adjacent = located.find((s) => s.fromAdjacent);
    if (adjacent) return refuse('adjacent_turn_not_allowed', 'discussion context cites a turn outside the batch');
    // M-5.6: at least one user quote, and a statement of a code fact is not discussion.
    const users = located.filter((s) => s.role === 'user');
    const next = users[0] ? nextUserText(users[0].turn, context) : null;
    const problem = judgeDiscussion(
      users.map((s) => ({ text: s.text, begin: s.begin, end: s.end })),
      next,
    );
    if (problem?.reason === 'assistant_only') return refuse('assistant_only', problem.detail);
    return verdictOf(problem);
  }

  // The adjacent previous turn may only lend a decision its assistant proposal.
  for (const s of located) {
    if (s.fromAdjacent && s.role !== 'assistant') {
      return refuse('adjacent_turn_not_allowed', 'only the assistant proposal of the previous turn may be cited');
    }
  }
  const userSources = located.filter((s) => s.role === 'user');
  if (userSources.length === 0) return refuse('assistant_only', 'no quote of the user supports it');
  // M-5.7: the user's words of one candidate come from one turn.
  if (new Set(userSources.map((s) => s.turn.id)).size > 1) {
    return refuse('stitched', 'the quotes of the user come from different turns');
  }
  const assistantSources = located.filter((s) => s.role === 'assistant');
  const anchorTerms = candidateTerms(candidate);

  if (assistantSources.length > 0) {
    // Assistant words back only the proposal a short confirmation of the user accepts (M-5.3, M-5.7).
    // A confirmed proposal is a decision, or a preference when it proposes how the assistant answers or works.
    if (candidate.kind === 'user_preference' && !assistantSources.every((s) => aboutAnswers(s.quote))) {
      return refuse('assistant_source', 'a confirmed project proposal is a decision, not a preference');
    }
    const turn = userSources[0]!.turn;
    if (assistantSources.some((s) => s.turn.threadId !== turn.threadId || s.turn.sequence !== turn.sequence - 1)) {
      return refuse('assistant_source', 'an assistant quote backs only the proposal of the turn right before the confirmation');
    }
    return verdictOf(judgeConfirmed(candidate.kind as StatementKind, userSources, assistantSources, anchorTerms, context));
  }

  // Every user quote is judged; one that stands beside one that does not is conflicting evidence.
  const findings = userSources.map((source) => assessStatement(source, candidate.kind as StatementKind, anchorTerms, context));
  const failed = findings.filter((f): f is Finding => f !== null);
  if (failed.length === 0) return verdictOf(null);
  // A short confirmation without the proposal it confirms.
  // (A statement held for the user on its own reading — sarcasm after "对对对" — stays held.)
  if (
    candidate.kind === 'project_decision' &&
    failed.some((f) => f.verdict === 'refuse') &&
    userSources.some((s) => judgeConfirmation(s.text, s.begin, s.end).confirms)
  ) {
    return refuse('confirmation_without_proposal', 'a short confirmation needs the assistant proposal of the turn right before it');
  }
  const hard = failed.find((f) => !isKeepable(f.reason));
  if (hard) return refuse(hard.reason, hard.detail);
  if (failed.length < findings.length) {
    const first = failed[0]!;
    return verdictOf({ reason: first.reason, detail: `another quote of it: ${first.detail}`, verdict: 'suggest' });
  }
  return verdictOf(failed.find((f) => f.verdict === 'suggest') ?? failed[0]!);
}

/**
 * A decision from a proposal and its confirmation: one user quote confirms (the others must stand on their
 * own), the assistant quotes are a proposal of the turn right before, and no later word of the user turns it
 * down (in the confirming turn after the confirmation, or the next turn).
 */
function judgeConfirmed(
  kind: StatementKind,
  userSources: readonly LocatedSource[],
  assistantSources: readonly LocatedSource[],
  anchorTerms: ReadonlySet<string>,
  context: ValidationContext,
): Finding | null {
  let confirmation: LocatedSource | null = null;
  let statement: LocatedSource | null = null;
  let partial = false;
  for (const source of userSources) {
    // "第一个可以，第二个先别动", "yes to A, no to B for now": an answer by parts takes the part it says yes to,
    // and never one it turns down or puts off (M-5.5, M-6.4).
    const part = answeredPart(source, assistantSources);
    if (part === 'no') return { reason: 'retracted', detail: 'the user turned this part of the proposal down', verdict: 'refuse' };
    if (part === 'later') return { reason: 'undecided', detail: 'the user put this part of the proposal off', verdict: 'refuse' };
    if (part === 'yes') {
      confirmation ??= source;
      partial = true;
      continue;
    }
    // "ok, the second one" beside a quote of the first item: it confirms another item of the list.
    if (assistantSources.some((a) => namesOtherItem(source.text, source.begin, source.end, a)))
      return { reason: 'assistant_source', detail: 'the confirmation names another item of the list', verdict: 'refuse' };
    // "第一条可以，第二条先别动" beside "1）…": bound to the item it names, whatever is said of the others.
    if (assistantSources.some((a) => boundConfirmation(source.text, source.begin, source.end, a) >= 0)) {
      confirmation ??= source;
      continue;
    }
    // "嗯……也许吧，我再想想" to the proposal just before: a hedged yes is neither taken nor turned down — held.
    if (hedgedAnswer(source.text) && hasAdjacentProposal(source, assistantSources, anchorTerms, context)) {
      const next = nextUserText(source.turn, context);
      if (next === null || !retractsLater(next))
        return { reason: 'undecided', detail: 'a hedged answer to the proposal: held for the user', verdict: 'suggest' };
    }
    const verdict = judgeConfirmation(source.text, source.begin, source.end);
    if (verdict.confirms) {
      confirmation ??= source;
      continue;
    }
    if (verdict.problem) {
      if (verdict.problem.verdict !== 'suggest') return verdict.problem;
      // A yes held for the user holds only a proposal of the turn right before, and only while the next turn
      // does not take it back ("先这样吧" to a statement of fact confirms nothing).
      if (!hasAdjacentProposal(source, assistantSources, anchorTerms, context)) {
        return { reason: 'confirmation_without_proposal', detail: 'a held confirmation needs the proposal it answers', verdict: 'refuse' };
      }
      const next = nextUserText(source.turn, context);
      if (next !== null && (retractsLater(next) || turnsDown(next)))
        return { reason: 'retracted', detail: 'the next turn takes the held confirmation back', verdict: 'refuse' };
      return verdict.problem;
    }
    // "同意你说的，包结构就按 feature 分": a confirmation that goes on to restate the proposal confirms it.
    if (judgeConfirmation(source.text, source.begin, source.end, true).confirms && restates(source, assistantSources)) {
      confirmation ??= source;
      continue;
    }
    // "好，就用 Redisson": the user states the decision itself, adopting the proposal.
    const own = assessStatement(source, kind, anchorTerms, context);
    // "不要，我们不搞仓库拆分": a statement that opens by turning the proposal down adopts none of it (M-5.7).
    if (own && own.verdict === 'suggest' && turnsDown(source.text))
      return { reason: 'retracted', detail: 'the user turned the proposal down', verdict: 'refuse' };
    if (own) return own;
    statement ??= source;
  }
  confirmation ??= statement;
  if (confirmation === null) {
    return { reason: 'confirmation_without_proposal', detail: 'assistant words need a confirmation of the user', verdict: 'refuse' };
  }
  if (!hasAdjacentProposal(confirmation, assistantSources, anchorTerms, context)) {
    // "yep" to "Would you like me to add a workflow …?": the user accepts an offer of work; whether it is a
    // project rule is for the user to say.
    // ("ok 弄吧" to "要我现在帮你把这几个单测修一下吗？": a yes to work for now is a task, no rule.)
    if (assistantSources.some((s) => isOfferForNow(s.text, s.begin, s.end))) {
      return { reason: 'one_off_request', detail: 'the confirmation accepts an offer of work for now', verdict: 'refuse' };
    }
    if (assistantSources.some((s) => isOffer(s.text, s.begin, s.end))) {
      return { reason: 'one_off_request', detail: 'the confirmation accepts an offer of work', verdict: 'suggest' };
    }
    return {
      reason: 'confirmation_without_proposal',
      detail: 'a short confirmation needs the assistant proposal of the turn right before it',
      verdict: 'refuse',
    };
  }
  // "不，我们决定用 Redis" beside "我建议用 Memcached": the user's own decision does not adopt what it turns down,
  // and a statement adopts only the proposal it restates.
  // (An answer by parts turns down another part in its own words; only the next turn may take this one back.)
  const next = nextUserText(confirmation.turn, context) ?? '';
  const later = partial ? [next] : [confirmation.text, confirmation.text.slice(confirmation.end), next];
  if (later.some((text) => turnsDown(text)) || retractsLater(next)) {
    return { reason: 'retracted', detail: 'the user turned the proposal down', verdict: 'refuse' };
  }
  if (confirmation === statement) {
    const said = new Set(contentTerms(stripMarkers(prepare(statement.quote)), 512));
    const unsaid = assistantSources.find((s) => !contentTerms(stripMarkers(prepare(s.quote)), 512).some((t) => said.has(t)));
    if (unsaid) return { reason: 'assistant_source', detail: 'an assistant quote says what the user did not adopt', verdict: 'refuse' };
  }
  return null;
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
  // (A part said twice — the content is often the title — adds no term: each distinct part is read once.)
  const parts = new Set([candidate.title, candidate.content, ...candidate.aliases]);
  return new Set(contentTerms(prepare([...parts].join('\n')), 1024));
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
): Finding | null {
  const problem = judgeStatement(source.text, source.begin, source.end, kind, nextUserText(source.turn, context));
  // Whatever the reading, a candidate that does not say what its quote says can never be held or kept.
  const quoteTerms = contentTerms(stripMarkers(prepare(source.quote)), 512);
  if (quoteTerms.length > 0 && !anchored(quoteTerms, anchorTerms)) {
    return { reason: 'no_content_anchor', detail: 'the candidate does not say what the quote says', verdict: 'refuse' };
  }
  if (problem) return problem;
  if (quoteTerms.length === 0)
    return { reason: 'no_content_anchor', detail: 'the quote holds a speech act but no content', verdict: 'refuse' };
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
  assistant: readonly LocatedSource[],
  anchorTerms: ReadonlySet<string>,
  context: ValidationContext,
): boolean {
  const bare = isBareConfirmation(confirmation.text);
  const adjacent = (s: LocatedSource): boolean =>
    s.turn.threadId === context.threadId && s.turn.sequence === confirmation.turn.sequence - 1 && s.turn.state === 'completed';
  // A one-word confirmation answers only what the answer ended with.
  const proposals = assistant.filter((s) => adjacent(s) && isProposal(s.text, s.begin, s.end, bare));
  if (
    !proposals.some((s) => {
      const terms = contentTerms(stripMarkers(prepare(s.quote)), 512);
      return terms.length > 0 && anchored(terms, anchorTerms);
    })
  )
    return false;
  // Every other assistant quote stands in the paragraph of a proposal: it is part of what was confirmed.
  return assistant.every((s) => proposals.includes(s) || proposals.some((p) => p.turn.id === s.turn.id && sameParagraph(s.text, p, s)));
}

/** True when the user's quote shares a content term with one of the assistant quotes (it restates the proposal). */
function restates(user: LocatedSource, assistant: readonly LocatedSource[]): boolean {
  const said = new Set(contentTerms(stripMarkers(prepare(user.quote)), 512));
  return assistant.some((s) => contentTerms(stripMarkers(prepare(s.quote)), 512).some((t) => said.has(t)));
}

/**
 * How an answer by parts ("第一个可以，第二个先别动", "yes to the retry policy, no to the circuit breaker") answers
 * the proposal quoted: each assistant quote is the part whose ordinal it is listed under ("1. …") or whose words
 * the clause names. 'no' or 'later' when a quote is a part turned down or put off, 'yes' when every quote is a
 * part taken, else null (not an answer by parts, or a quote it does not name).
 */
function answeredPart(user: LocatedSource, assistant: readonly LocatedSource[]): PartAnswer | null {
  if (assistant.length === 0) return null;
  const parts = answeredParts(user.text);
  if (parts.length === 0) return null;
  let taken = true;
  for (const a of assistant) {
    const item = listedItem(a.text, a.begin, a.end);
    const terms = new Set(contentTerms(stripMarkers(prepare(a.quote)), 512));
    const named = parts.filter((p) => (p.items.length > 0 ? p.items.includes(item) : contentTerms(p.name, 64).some((t) => terms.has(t))));
    const refused = named.find((p) => p.answer !== 'yes');
    if (refused) return refused.answer;
    if (named.length === 0) taken = false;
  }
  return taken ? 'yes' : null;
}

function sameParagraph(text: string, a: LocatedSource, b: LocatedSource): boolean {
  const from = Math.min(a.begin, b.begin);
  const to = Math.max(a.end, b.end);
  return !/\n\s*\n/u.test(text.slice(from, to));
}
