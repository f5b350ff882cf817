import { contentTerms, foldCase, isCjk } from '../../shared/text.js';
import type { MemoryKind, SourceRole } from '../types.js';
import type { CandidateAnswer } from './contracts.js';
import { locateQuote } from './quote-location.js';
import {
  ALL_MARKERS,
  CONFIRMATIONS,
  DECISION_ACTS,
  EXAMPLE,
  HYPOTHETICAL,
  HYPOTHETICAL_OPENING,
  type Lexicon,
  PREFERENCE_ACTS,
  PROPOSALS,
  TEMPORARY,
  UNDECIDED,
  affirmedActs,
  isQuestion,
  matchesAny,
  stripLexicons,
} from './speech-acts.js';

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
  | 'contract'
  | 'unknown_turn'
  | 'wrong_role'
  | 'quote_not_found'
  | 'quote_too_short'
  | 'adjacent_turn_not_allowed'
  | 'assistant_only'
  | 'code_or_tool_output'
  | 'no_speech_act'
  | 'negated'
  | 'question'
  | 'hypothetical'
  | 'example'
  | 'undecided'
  | 'temporary'
  | 'no_content_anchor'
  | 'confirmation_without_proposal'
  | 'duplicate_candidate'
  | 'suppressed_evidence';

export interface ContextTurn {
  id: string;
  threadId: string;
  sequence: number;
  state: string;
  userText: string;
  assistantText: string | null;
}

export interface ValidationContext {
  threadId: string;
  /** The turns of the batch, by id. */
  turns: ReadonlyMap<string, ContextTurn>;
  /** The completed turn just before the batch, for a confirmation's proposal. */
  adjacent: ContextTurn | null;
}

export interface VerifiedSource {
  turnId: string;
  role: SourceRole;
  quote: string;
  /** Offset of the quote in the RAW text, in characters (code points), as SQLite counts them. */
  start: number;
}

export interface ValidCandidate {
  kind: MemoryKind;
  title: string;
  content: string;
  aliases: string[];
  nonFactual: boolean;
  threadId: string;
  sources: VerifiedSource[];
}

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
    return accept();
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
  const acts = candidate.kind === 'user_preference' ? PREFERENCE_ACTS : DECISION_ACTS;
  let firstProblem: { reason: RejectReason; detail: string } | null = null;
  for (const source of userSources) {
    const problem = assessStatement(source, acts, anchorTerms);
    if (problem === null) return accept();
    firstProblem ??= problem;
  }

  if (candidate.kind === 'project_decision') {
    for (const source of userSources) {
      if (!isShortConfirmation(source)) continue;
      const problem = disqualifier(sentenceAround(source.text, source.begin, source.end));
      if (problem) return reject(problem.reason, `confirmation: ${problem.detail}`);
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
  if (quote.replace(/[\p{P}\p{Z}\s]/gu, '').length < 2) return { reason: 'quote_too_short', detail: 'quote has no content' };
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
  return foldCase(text).replace(/[\u2018\u2019\u02bc]/gu, "'").replace(/[\u201c\u201d]/gu, '"');
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
  acts: Lexicon,
  anchorTerms: ReadonlySet<string>,
): { reason: RejectReason; detail: string } | null {
  if (inCodeOrOutput(source.text, source.begin)) {
    return { reason: 'code_or_tool_output', detail: 'quote sits in pasted code, a quotation or tool output' };
  }
  const sentence = sentenceAround(source.text, source.begin, source.end);
  if (!matchesAny(acts, sentence)) return { reason: 'no_speech_act', detail: 'no explicit speech act in the quoted sentence' };
  const problem = disqualifier(sentence);
  if (problem) return problem;
  if (affirmedActs(acts, sentence).length === 0) return { reason: 'negated', detail: 'the speech act is negated' };
  const clauses = clausesAround(source.text, source.begin, source.end);
  if (matchesAny(TEMPORARY, clauses)) return { reason: 'temporary', detail: 'a request for this answer only' };
  const quoteTerms = contentTerms(stripLexicons(prepare(source.quote), ALL_MARKERS), 512);
  if (quoteTerms.length === 0) return { reason: 'no_content_anchor', detail: 'the quote holds a speech act but no content' };
  if (!anchored(quoteTerms, anchorTerms)) {
    return { reason: 'no_content_anchor', detail: 'the candidate does not say what the quote says' };
  }
  return null;
}

/** Sentence-level reasons a statement is not a standing preference or decision. */
function disqualifier(sentence: string): { reason: RejectReason; detail: string } | null {
  if (matchesAny(UNDECIDED, sentence)) return { reason: 'undecided', detail: 'the statement is undecided' };
  if (isQuestion(sentence)) return { reason: 'question', detail: 'the statement is a question' };
  if (isHypothetical(sentence)) return { reason: 'hypothetical', detail: 'the statement is hypothetical' };
  if (matchesAny(EXAMPLE, sentence)) return { reason: 'example', detail: 'the statement is an example' };
  return null;
}

function isHypothetical(sentence: string): boolean {
  if (matchesAny(HYPOTHETICAL, sentence)) return true;
  return splitClauses(sentence).some((clause) => {
    const opening = clause.trimStart();
    return HYPOTHETICAL_OPENING.some((e) => e.pattern.exec(opening)?.index === 0);
  });
}

/** A short confirmation: a confirmation phrase with almost nothing else in its clauses. */
function isShortConfirmation(source: LocatedSource): boolean {
  const clauses = clausesAround(source.text, source.begin, source.end);
  if (!matchesAny(CONFIRMATIONS, clauses)) return false;
  const rest = stripLexicons(clauses, ALL_MARKERS).replace(/[\p{P}\p{S}\p{Z}\s]/gu, '');
  return Array.from(rest).length <= 6;
}

/** The assistant proposal of the turn right before the confirming turn, with a proposal signal and content. */
function hasAdjacentProposal(
  confirmation: LocatedSource,
  located: readonly LocatedSource[],
  anchorTerms: ReadonlySet<string>,
  context: ValidationContext,
): boolean {
  return located.some((s) => {
    if (s.role !== 'assistant') return false;
    if (s.turn.threadId !== context.threadId || s.turn.sequence !== confirmation.turn.sequence - 1) return false;
    if (s.turn.state !== 'completed') return false;
    const sentence = sentenceAround(s.text, s.begin, s.end);
    if (!matchesAny(PROPOSALS, sentence)) return false;
    const terms = contentTerms(stripLexicons(prepare(s.quote), ALL_MARKERS), 512);
    return terms.length > 0 && anchored(terms, anchorTerms);
  });
}

const SENTENCE_END = /[。！？!?；;\n]|\.(?=\s|$)/gu;
const CLAUSE_END = /[。！？!?；;\n，,、：:]|\.(?=\s|$)/gu;

function spanAround(text: string, begin: number, end: number, boundary: RegExp): string {
  let from = 0;
  let to = text.length;
  for (const match of text.matchAll(boundary)) {
    const at = match.index;
    if (at < begin) from = at + match[0].length;
    else if (at >= end - 1 && at >= begin) {
      // A boundary inside the quote's last character (the quote ends with "。") still closes it.
      to = Math.max(at + match[0].length, end);
      break;
    }
  }
  if (to < end) to = end;
  return prepare(text.slice(from, to));
}

/** The whole sentence(s) the quote stands in, case-folded. */
function sentenceAround(text: string, begin: number, end: number): string {
  return spanAround(text, begin, end, SENTENCE_END);
}

/** The clause(s) the quote stands in, case-folded. */
function clausesAround(text: string, begin: number, end: number): string {
  return spanAround(text, begin, end, CLAUSE_END);
}

function splitClauses(sentence: string): string[] {
  return sentence.split(CLAUSE_END);
}

/** True when the offset lies in a fenced code block, a quoted line, or a line that looks like tool output. */
export function inCodeOrOutput(text: string, offset: number): boolean {
  const before = text.slice(0, offset);
  const fences = before.match(/^\s*(```|~~~)/gmu)?.length ?? 0;
  if (fences % 2 === 1) return true;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  return /^(\s{4,}|\t|\s*>|\s*\$ |\s*#!|\s*at \S+ \(|\s*(error|warning|exception)(\s*\[\w+\])?:|\s*traceback \(most recent|\s*\[(info|warn|warning|error|debug|trace)\]|\s*\d{2}:\d{2}:\d{2})/iu.test(line);
}
