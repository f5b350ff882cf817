import { isNegated, judgeSentence } from './acts.js';
import { clausesOf, type Piece, sentencesCovering, sentencesOf } from './clauses.js';
import * as L from './lexicon.js';
import { isTagQuestion } from './mood.js';
import {
  anyOf,
  BARE_CONFIRMATION,
  HOLD_CLAUSE,
  EN_FACT,
  FACT_CLAUSES,
  IMPERSONAL_FACT_CLAUSES,
  NOT_NEGATION,
  P,
  POSTPONE_END,
  QUESTION_MARK,
  ZH_FACT,
} from './phrases.js';
import { overlaps, Sentence } from './sentence.js';
import { isReportingFrame } from './speaker.js';
import { inCodeOrOutput, insideRanges, nearPaste, quotedRanges } from './text-types.js';
import { type GateProblem, held, problem, type StatementKind } from './verdict.js';
import { fold, type Hit, matchesOf, Phrases, Span } from './words.js';
import { isRemembered, rememberedWords, rememberOverrules } from '../remember-act.js';
import { scoped } from './shape.js';
import { dropsBack } from './drops.js';
import { reread } from './reread.js';
import { asksToRecall, lateReading } from './late-reading.js';
import { introducesOptions, isPlanProposal } from './partial.js';
import { confirmedItems, listLabel, listedItem, namesItem } from './items.js';
import { partRetraction, withoutSpans } from './retraction-parts.js';

// A delimitative or this-time-only task ("更新一下", "this time"): an offer of work, not a project choice.
const ONE_TIME = /一下|这次|这一次|\bthis time\b|\bright now\b/u;

export { inCodeOrOutput } from './text-types.js';
export { REASON_VERDICT } from './verdict.js';
export type { GateProblem, GateReason, StatementKind, Verdict } from './verdict.js';

/**
 * The speech-act gate (M-5.3, M-5.6): does a quoted user statement carry the user's own standing wish or this
 * project's ruling? It reads the clause the quote stands in — who speaks, about what, in which kind of
 * text — and looks at the sentence and its neighbours only where the language needs them (a condition
 * beside a rule, a retraction right after, a tag question, a reporting frame before).
 */

// Set while the third reading judges the quoted words alone.
let judgingAlone = false;

/**
 * Judges a quoted user statement as a preference or decision. `next` is the user text of the turn right after
 * it, if any, for a retraction there. Returns null when the statement stands.
 */
export function judgeStatement(
  text: string,
  begin: number,
  end: number,
  kind: StatementKind,
  next: string | null = null,
): GateProblem | null {
  const found = byParts(readAll(text, begin, end, kind, next), text, begin, end, kind, next);
  // M-5.7: an explicit `/remember` is the user's standing act, so it overrules the reading of the words; who
  // speaks and what is taken back still count, and then the user has already decided: no suggestion is held.
  if (!isRemembered(text, end, kind)) return found;
  // "/remember which pattern did we pick last month?": words that ask for something recalled hold nothing to store.
  const words = rememberedWords(text);
  if (words !== null && asksToRecall(words)) return problem('question', 'the remember asks for something recalled', 'refuse');
  if (found === null) return found;
  if (!rememberOverrules(found.reason)) return { ...found, verdict: 'refuse' };
  // The words are overruled, not what the next turn takes back ("/remember …" then "刚才那条打错了，不算").
  return next !== null && retractsLater(next) ? problem('retracted', 'the next turn takes the remember back', 'refuse') : null;
}

// Readings a retraction clause may give the whole statement: what it takes back, holds or puts off.
const TAKEN_BACK = new Set(['retracted', 'temporary', 'undecided', 'correction']);

/**
 * A retraction that names one part of the statement (retraction-parts.ts): a quote in a part taken back is
 * refused; a quote it spares is read with the clauses answering parts left out; a part taken back that the
 * statement's words do not name leaves what the quote says for the user.
 */
function byParts(
  found: GateProblem | null,
  text: string,
  begin: number,
  end: number,
  kind: StatementKind,
  next: string | null,
): GateProblem | null {
  if (found !== null && !TAKEN_BACK.has(found.reason) && found.verdict === 'refuse') return found;
  const parts = partRetraction(text, begin, end, next);
  if (parts === null) return found;
  // (What a retraction reading already holds for the user stays held: the quote may say more than the part.)
  if (parts.effect === 'drops')
    return found !== null && (found.verdict === 'refuse' || found.reason === 'retracted')
      ? found
      : problem('retracted', 'a later clause takes back the part the quote states');
  if (found === null || !TAKEN_BACK.has(found.reason)) return found;
  if (parts.effect === 'unresolved')
    return found.verdict === 'refuse'
      ? problem('retracted', 'a later clause takes back a part the statement does not name: held for the user', 'suggest')
      : found;
  return readAll(withoutSpans(text, parts.inTurn), begin, end, kind, parts.inNext ? null : next);
}

/** The three readings of a statement (first, reread, late), without the parts a retraction names. */
function readAll(text: string, begin: number, end: number, kind: StatementKind, next: string | null): GateProblem | null {
  const first = correctionOf(reread(readStatement(text, begin, end, kind, next), text, begin, end, kind), text, begin, end);
  // The third reading (late-reading.ts); what it judges alone is judged as any statement, once: inside that
  // judgement nothing is judged alone again (a turn of many corrections would otherwise recurse on each).
  return lateReading(first, text, begin, end, kind, (alone) => {
    if (judgingAlone) return problem('no_speech_act', 'not judged alone again inside a judgement of its own');
    judgingAlone = true;
    try {
      return judgeStatement(alone, 0, alone.length, kind, next);
    } finally {
      judgingAlone = false;
    }
  });
}

function correctionOf(verdict: GateProblem | null, text: string, begin: number, end: number): GateProblem | null {
  // "纠正一下，不是所有服务都升 Java 21，是新服务用 21": a correction restates a rule against what was said before;
  // what it keeps is uncertain, so a standing act in it (even one read as negated or reported) is held for the user.
  const heldAct = verdict === null || ['negated', 'third_party', 'retracted'].includes(verdict.reason);
  const noAct = verdict !== null && ['no_speech_act', 'description'].includes(verdict.reason);
  if (!heldAct && !noAct) return verdict;
  const sentences = sentencesOf(text);
  const covering = sentencesCovering(sentences, begin, end);
  const lead = sentences[0];
  if (heldAct) {
    const corrected = [covering[0], lead].some((piece) => piece && P.corrections.has(new Span(fold(text.slice(piece.start, piece.end)))));
    if (corrected) return problem('correction', 'the user corrects what was said before');
  }
  // "更正：超时定的是 30 秒，不是 60", "不对，是 tabs 不是空格": a correction that restates a value against the one said
  // before may restate a ruling, even with no act of its own read in it: held for the user.
  if (noAct) {
    const corrected = [...covering, lead].some((piece) => {
      const said = piece ? fold(text.slice(piece.start, piece.end)) : '';
      return P.corrections.has(new Span(said)) || CORRECTING_OPENING.test(said);
    });
    if (corrected && covering.some((piece) => RESTATED_CONTRAST.test(fold(text.slice(piece.start, piece.end)))))
      return problem('correction', 'a correction restates a value against the one said before');
  }
  return verdict;
}

// "不对，…", "no wait, …": an opening that says what was said before is wrong.
const CORRECTING_OPENING = /^[\s\p{P}]*(?:(?:不对|错了)[\s\p{P}]*)+|^[\s\p{P}]*(?:no,?\s+wait|wait,?\s+no)\b/u;
// "是 X，不是 Y", "而不是", "not Y", "instead of", "rather than": a value set against another.
// … or a clause after the correction opening with the copula, its subject left out ("打错了，是 Nextflow", "typo, it's 5.0").
const RESTATED_CONTRAST =
  /不是|而非|\bnot\b|\binstead of\b|\brather than\b|[，,:：;；]\s*(?:应该|其实)?是(?!的|不是|否)\s*[\p{L}\p{N}]|[,:;]\s*it(?:'s| is| should be)\s/u;

// "哎，还是解释吧", "还是先用 Java 吧": what follows settles the other way.
const REVERSAL =
  /还是[^，,。.!！?？]{0,14}吧|还是先|actually,? (?:let's|we'll|keep|use)|(?:let's|we'll) (?:keep|use|stick with) [^,.]{1,30} instead/u;

function readStatement(text: string, begin: number, end: number, kind: StatementKind, next: string | null): GateProblem | null {
  if (inCodeOrOutput(text, begin)) {
    // "> 所有服务都要…\n我们这个 repo 也照做": a quote running from pasted words into a line of the user's own that takes
    // them on: what the project adopts is for the user to confirm (M-5.7).
    const last = text.lastIndexOf('\n', end - 1) + 1;
    if (last > begin && !inCodeOrOutput(text, last) && P.adoptions.has(new Span(fold(text.slice(last, end)))))
      return problem('paste_nearby', 'the user takes on pasted words as a rule of this project', 'suggest');
    return problem('code_or_tool_output', 'quote sits in pasted code, a quotation, a log or tool output');
  }
  const sentences = sentencesOf(text);
  const covering = sentencesCovering(sentences, begin, end);
  let best: GateProblem | null = null;
  let standing: Piece | null = null;
  for (const piece of covering) {
    if (inCodeOrOutput(text, piece.start)) continue;
    const s = new Sentence(text, piece);
    const index = sentences.indexOf(piece);
    const framed = index > 0 && isReportingFrame(text, sentences[index - 1]!);
    const r = judgeSentence(s, { begin: s.at(begin), end: s.at(end) }, kind, framed);
    if (r === null) {
      standing = piece;
      break;
    }
    if (best === null || (best.reason === 'no_speech_act' && r.reason !== 'no_speech_act')) best = r;
  }
  if (standing === null) {
    // "安全组要求所有管理接口都加审计日志。我们也照做。": a later sentence of the quote taking on what a party before it
    // asks for makes it this project's rule, as in one sentence; what a party only recommends, with no act read
    // in it ("the auditors recommend a timelock …. agreed, we do the same here"), is for the user to confirm.
    const adopted = covering.slice(1).some((piece) => P.adoptions.has(new Span(fold(text.slice(piece.start, piece.end)))));
    if (adopted && best?.reason === 'third_party') return null;
    if (adopted && best?.reason === 'no_speech_act' && partyAdvises(fold(text.slice(covering[0]!.start, covering[0]!.end))))
      return problem('third_party', 'the user takes on what another party recommends', 'suggest');
    // "以后写 Dockerfile 要不要都用 multi-stage？我感觉应该要。": a yes/no question the user answers with a leaning
    // of their own is a wish in question form: held for the user (a wh-question asks for information).
    if (best?.reason === 'question' && !best.detail.includes('wh-') && leansAfter(text, covering[covering.length - 1]!.end))
      return problem('question', 'a question the user answers with a leaning', 'suggest');
    // "Cursor keeps telling me to always …. Is that right?": another party's request the user asks about is theirs
    // (a question asking the assistant to do the same — "你也这样？" — is a wish: held).
    if (best?.reason === 'third_party' && best.verdict === 'suggest' && asksAbout(text.slice(begin)))
      return problem('third_party', 'the user asks about what someone else says', 'refuse');
    // '「所有代码提交前必须跑 swiftformat。」\n对，这条就是我们项目的规矩，照这个来': quoted words that a line of the user's
    // own after them takes on are for the user to confirm (M-5.7).
    if (best?.reason === 'quoted_speech') {
      const close = Math.max(0, ...quotedRanges(text).map(([, b]) => b));
      if (close > begin && close < end && P.adoptions.has(new Span(fold(text.slice(close, end)))))
        return problem('paste_nearby', 'the user takes on the quoted words as a rule of this project', 'suggest');
    }
    // "（贴的聊天）\n我觉得可以，按这个来": a line of the user's own right after pasted material that takes it on —
    // what the project adopts is for the user to confirm (M-5.7).
    if (best?.reason === 'no_speech_act' && P.adoptions.has(new Span(fold(text.slice(begin, end)))) && pastedLineBefore(text, begin))
      return problem('paste_nearby', 'the user takes on the pasted material just before', 'suggest');
    // "Next sprint we move to X. Actually no, hold off, forget it.": what is held for the user is void once the user
    // takes it back, in the next sentence or the next turn.
    if (best?.verdict === 'suggest') {
      const after = sentences[sentences.indexOf(covering[covering.length - 1]!) + 1];
      const following = after ? text.slice(after.start, after.end) : null;
      if ((following !== null && (retractsLater(following) || turnsDown(following))) || (next !== null && retractsLater(next)))
        return problem('retracted', 'what was held is taken back right after');
    }
    return best ?? problem('code_or_tool_output', 'the quote sits in pasted material');
  }
  // A statement right beside pasted material may be part of it (M-5.7): held for the user.
  if (nearPaste(text, begin)) return problem('paste_nearby', 'the quote stands right beside pasted material');
  // 'From the release notes: "X remains the default going forward." Worth …?': quotation marks that run past the
  // sentence the quote stands in (the sentence alone does not see the pair).
  if (quotedRanges(text).some(([a, b]) => a < begin && end < b && (a < standing!.start || b > standing!.end)))
    return problem('quoted_speech', 'the quoted words stand inside quotation marks that run past their sentence');
  // "…默认实现了 equals 和 hashCode 对吧。", "…, right?": a sentence ending on a tag that asks to confirm.
  if (FACT_TAG_END.test(fold(text.slice(standing.start, standing.end))))
    return problem('question', 'the sentence ends on a tag asking to confirm it');
  const index = sentences.indexOf(standing);
  // "For game jams I never write tests. Just so you know why my jam repo looks like that.": what follows in the
  // turn says the statement explains another project of the user's.
  if (explainsOtherProject(text.slice(begin))) return problem('other_project', 'what follows puts the statement in another project');
  // "等下，这个我说了不算，…先别记": the next turn taking it back anywhere in it.
  if (next !== null && retractsLater(next)) return problem('retracted', 'the next turn takes the statement back');
  // "私有的那条去掉吧": the next turn takes back a part of it: what stands is for the user to say.
  if (next !== null && P.laterPartial.has(new Span(fold(next))))
    return problem('retracted', 'the next turn takes back a part of the statement', 'suggest');
  // "…一份……哦等等，…，这个不用", "…. Wait, no, …, that's off the table": a later clause of the turn drops it.
  if (dropsBack(text.slice(end))) return problem('retracted', 'a later clause of the turn points back at the statement and drops it');
  const following = sentences[index + 1] ? text.slice(sentences[index + 1]!.start, sentences[index + 1]!.end) : firstSentence(next);
  if (following !== null) {
    const span = new Span(fold(following));
    // The next turn may also turn it down ("wait, no — keep npm"); in the same turn "no MySQL shims" is content.
    const nextTurn = !sentences[index + 1];
    // In the same turn, a sentence that takes it back anywhere ("… hmm no, too much noise, forget it").
    const sameTurn = !nextTurn && retractsLater(following);
    const early = P.retractions.find(span).some((h) => h.index <= 16);
    if (early || (nextTurn && turnsDown(following)) || sameTurn || REVERSAL.test(span.text)) {
      // "…省了吧。嗯……架构类的问题还是留着吧": a sentence after it keeps the old way for a topic of its own — an exception
      // to the statement, not its retraction: what stands is for the user to say.
      if (!early && !nextTurn && keepsForOwnTopic(span.text))
        return problem('retracted', 'a later sentence keeps the old way for a part of its own', 'suggest');
      return problem('retracted', 'the statement is taken back right after');
    }
    if (isTagQuestion(span)) return problem('question', 'a question right after asks for agreement');
  }
  return null;
}

/** True when the line before the one the offset stands in is pasted material (code, a log, a chat transcript). */
function pastedLineBefore(text: string, at: number): boolean {
  const line = text.lastIndexOf('\n', at - 1);
  if (line <= 0) return false;
  return inCodeOrOutput(text, text.lastIndexOf('\n', line - 1) + 1);
}

// "the auditors recommend …", "安全组建议…": a verb of advising after a subject that is not the user or the assistant.
const ADVISING = new RegExp(`(?:${L.ADVISING_VERBS.zh.join('|')})|(?<![\\p{L}])(?:${L.ADVISING_VERBS.en.join('|')})(?![\\p{L}])`, 'u');
function partyAdvises(sentence: string): boolean {
  const m = ADVISING.exec(sentence);
  if (!m) return false;
  const subject = sentence.slice(0, m.index);
  return /\p{L}/u.test(subject) && !/我|你|咱|(?<![\p{L}])(?:i|we|you|let's)(?![\p{L}])/u.test(subject);
}

// "架构类的问题还是留着吧": a topic before 还是, then a verb of keeping.
const KEPT_FOR_TOPIC = new RegExp(
  `^[\\s\\p{P}]*(?:(?:嗯|呃|唔|哦|啊|不过|但是|但)[\\s\\p{P}]*)*([^，,。.!！?？]{2,16}?)(?:就|也)?还是(?:先)?(?:${L.KEEPING_VERBS.join('|')})`,
  'u',
);
const POINTING_TOPIC = /^(?:这|那)(?:个|些|段|条|样|种)?$|^(?:它|这里|那里)$/u;
function keepsForOwnTopic(sentence: string): boolean {
  const topic = KEPT_FOR_TOPIC.exec(sentence)?.[1]?.replace(/[\s\p{P}]/gu, '');
  return topic !== undefined && Array.from(topic).length >= 2 && !POINTING_TOPIC.test(topic) && !/^(?:我|我们|咱们|你)/u.test(topic);
}

const FACT_TAG_END = new RegExp(
  `(?:${L.FACT_TAGS.zh.join('|')})[\\s\\p{P}]*$|[,，]\\s*(?:${L.FACT_TAGS.en.join('|')})\\s*[?？][\\s\\p{P}]*$`,
  'u',
);
// The user's own other project named by a possessive and a qualifier ("my jam repo", "我那个外包的仓库"), then said
// to be that way ("looks like that", "才这样"): the statement explains that project.
const OWN_OTHER_PROJECT = new RegExp(
  `(?:(?<![\\p{L}])my\\s+(?!own\\b)(?:[\\w.-]+\\s+){1,2}(?:${L.OTHER_PROJECT_NP.nouns.en.join('|')})(?![\\p{L}])` +
    `|我(?:那个|的那个|自己的)[^，,。]{1,12}?(?:${L.OTHER_PROJECT_NP.nouns.zh.join('|')}))` +
    `[^，,。.!?！？]{0,12}?(?:looks? (?:like|that way)|is (?:like|set up like) (?:that|this)|才(?:会)?(?:这样|那样|这个样子))`,
  'u',
);
function explainsOtherProject(rest: string): boolean {
  return OWN_OTHER_PROJECT.test(fold(rest));
}

// A question asking the assistant to do likewise ("你也这样？", "can you do that too?").
const LIKEWISE = /也|一样|同样|照做|\b(?:too|as well|the same|likewise)\b/u;
function asksAbout(rest: string): boolean {
  const folded = fold(rest);
  const clauses = folded.split(/(?<=[?？])/u).filter((c) => QUESTION_MARK.test(c));
  return clauses.length > 0 && !clauses.some((c) => LIKEWISE.test(c.split(/[，,。.!！;；—–]/u).at(-1)!));
}

// The user's own leaning: a first person and a verb of opinion ("我感觉应该要", "I'd lean towards yes").
const LEANING = /(?:我|我们)(?:是|也|还是)?(?:感觉|觉得|倾向|偏向)|\bi(?:'d| would)? (?:think|lean|prefer)|\bi'm leaning/u;
function leansAfter(text: string, from: number): boolean {
  return LEANING.test(fold(text.slice(from)));
}

function firstSentence(text: string | null): string | null {
  if (text === null) return null;
  const first = sentencesOf(text)[0];
  return first ? text.slice(first.start, first.end) : null;
}

// "Import mode it is", "tabs it is": a choice named, then "it is" — the English formula of choosing.
// (The choice is a name of a few words, no clause: "I know what it is" names nothing.)
const CHOSEN = new RegExp(
  String.raw`^[\s\p{S}]*(?!.*\b(?:what|whatever|how|where|why|who|which|that|this|i|you|we|know|see|think|guess)\b)` +
    String.raw`[\p{L}\p{N}][\p{L}\p{N}.+#/-]*(?:\s+[\p{L}\p{N}.+#/-]+){0,3}\s+it is[\s\p{S}]*$`,
  'u',
);

export type ConfirmationVerdict = { confirms: true } | { confirms: false; problem: GateProblem | null };

/**
 * A short confirmation of the proposal just before ("同意", "好", "sounds good, go with that"). The whole
 * turn is read: a hedge, a time scope, a question or a retraction anywhere in it cancels the confirmation.
 */
export function judgeConfirmation(text: string, begin: number, end: number, anyLength = false): ConfirmationVerdict {
  if (inCodeOrOutput(text, begin)) return { confirms: false, problem: null };
  const span = new Span(fold(text));
  // "先这样吧", "fine for now": a settling for now answers as a confirmation does (the veto below holds it).
  const hits = [...P.confirmations.find(span), ...P.provisionalSettlings.find(span)].sort((a, b) => a.index - b.index);
  const quoteAt = fold(text.slice(0, begin)).length;
  const quoteEnd = fold(text.slice(0, end)).length;
  const own = hits.filter((h) => h.index < quoteEnd && h.end > quoteAt);
  if (own.length === 0) return { confirms: false, problem: null };
  const first = own[0]!;
  // A confirmation answers: it opens a clause ("行，就这么办", "那就这样"); "3 亿行" holds 行 as a measure word.
  const lead = span.text
    .slice(span.text.lastIndexOf('\n', first.index) + 1, first.index)
    .split(/[，,。.!！;；:：]/u)
    .at(-1)!;
  // … or it judges the proposal ("这个思路好", "that approach works").
  // … or a part of it ("第一点同意", "the first point sounds good").
  // … or it names the choice with the formula of choosing ("Import mode it is", "tabs it is").
  const approval =
    (P.proposalNouns.has(new Span(lead)) && P.deictics.has(new Span(lead))) || P.proposalParts.has(new Span(lead)) || CHOSEN.test(lead);
  if (!approval && P.fillers.strip(new Span(P.negations.strip(new Span(lead)))).replace(/[\s\p{P}\p{S}]/gu, '').length > 0) {
    return { confirms: false, problem: null };
  }
  const before = span.text.slice(Math.max(0, first.index - 6), first.index);
  if (P.negations.find(new Span(before)).some((n) => n.end >= before.trimEnd().length - 1)) {
    return { confirms: false, problem: problem('negated', 'confirmation: the answer is no') };
  }
  // A hedge, time scope, retraction or question in the confirming sentence cancels it; one only in another
  // clause of the turn ("可以，前半部分照做，pre-commit 那个先不加") is conflicting evidence: held for the user.
  const clauses = clausesOf(span.text, { start: 0, end: span.text.length }).filter((c) => c.start < quoteEnd && quoteAt < c.end);
  const sentence = new Span(clauses.length > 0 ? span.text.slice(clauses[0]!.start, clauses[clauses.length - 1]!.end) : span.text);
  const veto = (part: Span): GateProblem | null => {
    const postponed = part.text.split(/[，,。.!！;；]/u).some((c) => POSTPONE_END.test(c));
    // (A guess among the undecided words — "maybe", "也许" — weakens the yes below; "maybe later", "先试试看" put it off.)
    const hedges = P.hedgedGuesses.find(part);
    const putOff = P.undecided.find(part).some((u) => !hedges.some((h) => h.index <= u.index && u.end <= h.end));
    if (putOff || postponed) return problem('undecided', 'confirmation: the answer is put off');
    // "别的断言库都不要了" drops something else; a retraction stands alone in its clause ("算了", "不要了").
    // ("行，按你说的来，qmake 那套不要了": a retraction after a topic of its own drops that thing, not the yes.)
    if (P.retractions.find(part).some((h) => bareRetraction(part, h) && !afterOwnTopic(part, h)))
      return problem('retracted', 'confirmation: taken back');
    // "行吧，先这样": a confirmation for now is provisional — held for the user.
    if (P.temporary.find(part).some((t) => !P.confirmations.find(part).some((h) => overlaps(h, t))))
      return problem('temporary', 'confirmation: for now only', 'suggest');
    if (QUESTION_MARK.test(part.text)) return problem('question', 'confirmation: the answer is a question');
    // "fine I guess", "probably ok 吧", "行，不过回头可能还得改": a yes weakened by a guess or a grudging word is
    // weak evidence — held for the user.
    if (hedges.length > 0 || P.speculation.has(part)) return problem('undecided', 'confirmation: the yes is hedged', 'suggest');
    return null;
  };
  const inSentence = veto(sentence);
  if (inSentence) return { confirms: false, problem: inSentence };
  const elsewhere = veto(span);
  if (elsewhere) return { confirms: false, problem: held(elsewhere) };
  // Short, or what follows extends the proposal into a rule ("yes, do that — and make it the standard for any
  // new client", "后面新写的接口都按这个来").
  // (The choice a formula of choosing names is the proposal's, not words of the user's own.)
  const said = CHOSEN.test(lead) ? new Span(span.text.slice(first.index)) : span;
  const rest = P.fillers.strip(new Span(P.confirmations.strip(said))).replace(/[\s\p{P}\p{S}]/gu, '');
  const extends_ = P.standing.has(span) || P.decision.has(span) || P.extensions.has(span) || P.proposalReferences.has(span);
  return anyLength || Array.from(rest).length <= 8 || extends_ ? { confirms: true } : { confirms: false, problem: null };
}

/**
 * "嗯……也许吧，我再想想", "uh, maybe? need to sleep on it": an answer with a hedged yes as a clause of its own and
 * nothing turning the proposal down — neither a confirmation nor a refusal: held for the user.
 */
export function hedgedAnswer(text: string): boolean {
  // (An answer: a few words, not a statement of its own that happens to open with "maybe".)
  if (Array.from(text.trim()).length > 48) return false;
  // A no or a retraction turns it down; "我再想想", "let me think" only put it off.
  const span = new Span(fold(text));
  if (P.refusals.find(span).length > 0 || P.retractions.find(span).some((h) => !P.memoryHolds.has(new Span(h.text)))) return false;
  const clauses = fold(text)
    .split(/(?<=[?？])|[，,。.!！;；…~～\n—–]+/u)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  const hedged = (c: string): boolean => HEDGED_CLAUSE.test(c.replace(/[?？]+$/u, '').trim());
  // A question of its own ("what does it break?") asks something else of the assistant.
  if (clauses.some((c) => /[?？]$/u.test(c) && !hedged(c))) return false;
  return clauses.some(hedged);
}
const HEDGED_CLAUSE = new RegExp(
  `^(?:(?:嗯|呃|唔|hmm+|uh+|um+|mm+|well)\\s*)*(?:${[...L.HEDGED_ASSENTS.zh, ...L.HEDGED_ASSENTS.en].join('|')})吧?$`,
  'u',
);

/**
 * True when a later turn takes back what was said before it: a retraction or a hold anywhere in it, or it
 * settles the other way ("…，还是先用 Java 吧", "keep npm").
 */
export function retractsLater(text: string): boolean {
  const folded = fold(text);
  if (REVERSAL.test(folded) || KEEP_OTHER.test(folded) || SLIP_BACK.test(folded) || dropsBack(text)) return true;
  // A clause that holds a thing back for now, or settles on the alternative, anywhere in the turn.
  if (folded.split(/[，,。.!！;；?？\n]/u).some((c) => HOLD_CLAUSE.test(c.trim()) || SETTLE_OTHER.test(c.trim()))) return true;
  // The whole turn is read: a hold or retraction may come after its reason ("等下，这个我说了不算，…先别记").
  return sentencesOf(text).some((p) => {
    const span = new Span(fold(text.slice(p.start, p.end)));
    if (P.memoryHolds.has(span) || P.laterHolds.has(span)) return true;
    return P.retractions.find(span).some((h) => bareRetraction(span, h) || P.memoryHolds.has(new Span(h.text)));
  });
}

// "刚才那句写错了", "上面那条打错了", "英文那条不算", "sorry, I mistyped that", "that one doesn't count": a later turn
// says the words pointed back at were a slip of its own, or void.
const SLIP_BACK = new RegExp(
  '(?:刚才|刚刚|上面|前面|之前|那条|那句|这条|这句)[^，,。.!！?？]{0,16}(?:说|打|写|输|敲|发)错了' +
    '|(?:那|这)(?:条|句|个)(?:就)?不算(?:数)?(?![\\p{Script=Han}])' +
    "|\\bi (?:mistyped|misspoke|typed the wrong)\\b|\\bthat was a typo\\b|\\b(?:that|this) one (?:doesn't|does not) count\\b",
  'u',
);
const SETTLE_OTHER = new RegExp(`^(?:那|那就|我们|咱们|就)?还是(?:先)?(?:${L.CHOICE_VERBS.join('|')})`, 'u');
// "…, so keep bash", "Keep npm.": the next turn tells to keep what there was, an imperative opening its clause.
const KEEP_OTHER = /(?:^|[,.;:!—–-]\s*|\bso\s+)keep\s+(?:using\s+|the\s+)?[a-z][\w.-]*(?:\s*[.!]|\s*$)/u;

/**
 * True when the text, read from its start, turns down what came before it ("不，别用那个", "算了", "no, keep
 * MySQL", "actually, scratch that"): a refusal or retraction in its first clause.
 */
export function turnsDown(text: string): boolean {
  const first = sentencesOf(text)[0];
  if (!first) return false;
  const span = new Span(fold(text.slice(first.start, first.end)));
  if (P.retractions.find(span).some((h) => h.index <= 16)) return true;
  // An interjection may come first ("hmm no, …", "嗯不对，…").
  return P.refusals
    .find(span)
    .some((h) => INTERJECTION_ONLY.test(span.text.slice(0, h.index)) && !NOT_NEGATION.has(span.text.slice(h.index, h.index + 2)));
}

/**
 * The fixed parts of a gap pattern ("每次…都" → 每次, 都); a plain phrase is its own only part. A part that names
 * what was chosen ("let's do the … option") is content, not a marker, and is kept.
 */
const CONTENT_PARTS = new Set([...L.PROPOSAL_NOUNS.en, 'thing', 'one']);
const fixedParts = (entry: string): string[] =>
  entry
    .split(/\{gap\}|\{span\}/u)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && !CONTENT_PARTS.has(p));

/** True when the confirmation is one bare word ("好", "行", "ok"), which needs a proposal at the end of the answer before it. */
export function isBareConfirmation(text: string): boolean {
  const rest = text.replace(/[\s\p{P}\p{S}]/gu, '');
  return Array.from(rest).length <= 2 || BARE_CONFIRMATION.test(rest);
}

/**
 * An assistant proposal a confirmation can bind to: a proposal signal, not negated, not in pasted code, in the
 * quoted sentence. With `nearEnd`, it must also stand among the last three sentences of the answer.
 */
export function isProposal(text: string, begin: number, end: number, nearEnd: boolean): boolean {
  if (inCodeOrOutput(text, begin)) return false;
  const sentences = sentencesOf(text);
  const covering = sentencesCovering(sentences, begin, end);
  if (nearEnd && sentences.indexOf(covering[covering.length - 1]!) < sentences.length - 3) return false;
  const signalled = (piece: Piece): boolean => {
    const s = new Sentence(text, piece);
    // "建议把 README 里的安装步骤更新一下": a task for now on one thing is no project choice to confirm.
    if (ONE_TIME.test(s.span.text) && !scoped(s, s.clauses.length - 1)) return false;
    // An offer of the assistant's own work binds a confirmation only when it names a project choice.
    const offers = s.hits(P.offers);
    const signals = s.hits(P.proposals).filter((h) => !offers.some((o) => overlaps(o, h)));
    // "Want me to keep doing that from now on?": an offer of a standing way of working proposes it, as an offer
    // naming a project choice does.
    const standing = s.hits(P.standing);
    const chosen = s.hits(P.decision).length > 0 || standing.length > 0;
    if (offers.length > 0 && signals.length === 0 && !chosen) return false;
    // "要我现在帮你把这三个 SQL 改成批量插入吗？": an offer of work for now is a task, whatever it changes.
    if (offersWorkNow(s)) return false;
    const proposed = [...signals, ...(chosen ? offers : [])].some((h) => {
      const clause = s.clauseOf(h.index);
      return !insideRanges(s.quoted, h.index, h.end) && !isNegated(s, h, clause);
    });
    // "那就用 Vitest 替换 Jest", "let's switch to pnpm": a plan put to the user proposes it (M-5.5).
    return proposed || (offers.length === 0 && s.quoted.length === 0 && isPlanProposal(s.span.text));
  };
  if (covering.some(signalled)) return true;
  // "Should every migration ship a down script? I'd recommend it.", "…。我建议这么做。": a proposing sentence right
  // after, whose object points back at the quoted one, proposes it.
  const after = sentences[sentences.indexOf(covering[covering.length - 1]!) + 1];
  if (after && pointsBack(new Sentence(text, after)) && signalled(after)) return true;
  // An option of a list ("A. 在网关层做限流…") is proposed by another sentence of the answer that names it ("我建议 A").
  // ("2) 用 Foundry 脚本部署" quoted from "用 Foundry…": the label may stand just before the quote.)
  const listed = listLabel(text, begin, end);
  if (listed === null) return false;
  // An item of a list its introduction proposes ("两个建议：1. …；2. …", "My proposal: (1) …"): read before its label.
  const before = new Span(fold(text.slice(0, listed.start)));
  if (P.proposals.find(before).some((h) => /^[^。.!?！？\n]{0,12}[:：]/u.test(before.text.slice(h.end)))) return true;
  // "Two suggestions: (1) …", "My recommendations: …": a plural noun of proposing introduces the list.
  if (LIST_OF_PROPOSALS.test(before.text) || introducesOptions(text.slice(0, listed.start))) return true;
  // "我推荐方案二", "I'd pick B", "我建议第二个", "I'd go with the second one": a sentence that proposes it names it.
  return sentences.some(
    (piece) => !covering.includes(piece) && namesItem(text.slice(piece.start, piece.end), listed.item, listed.label) && signalled(piece),
  );
}

/** True when the text is about how the assistant answers or works ("以后我回答的时候先给 TL;DR"). */
export function aboutAnswers(text: string): boolean {
  return P.aboutAnswers.has(new Span(fold(text)));
}

/** "qmake 那套不要了": the clause names a thing of its own, set apart by a space, before a pointer and the retraction. */
function afterOwnTopic(span: Span, h: { index: number }): boolean {
  const lead = span.text
    .slice(0, h.index)
    .split(/[，,。.!！;；:：]/u)
    .at(-1)!;
  return /[\p{L}\p{N}][\w.+-]*\s+(?:那|这)(?:套|个|些|种|块|一套)?\s*(?:就|也|都)?\s*$/u.test(lead) && /[A-Za-z0-9]/u.test(lead);
}

function bareRetraction(span: Span, h: { index: number; end: number }): boolean {
  const from = Math.max(span.text.slice(0, h.index).search(/[^，,。.!！;；\s]*$/u), 0);
  const before = span.text.slice(from, h.index).replace(/[\s\p{P}]|还是|那|就|我|先/gu, '');
  return Array.from(before).length <= 1;
}

/** True when the quoted sentence offers the assistant's own work ("Would you like me to add …?", "要我…吗"). */
export function isOffer(text: string, begin: number, end: number): boolean {
  return sentencesCovering(sentencesOf(text), begin, end).some((piece) => new Sentence(text, piece).hits(P.offers).length > 0);
}

/**
 * True when what the quote offers is the assistant's work for now ("要我现在帮你把这几个单测修一下吗？"): a task. (An
 * offer of a workflow, then "I can draft it now", offers more than the work of now.)
 */
export function isOfferForNow(text: string, begin: number, end: number): boolean {
  const offering = sentencesCovering(sentencesOf(text), begin, end)
    .map((piece) => new Sentence(text, piece))
    .filter((s) => s.hits(P.offers).length > 0);
  return offering.length > 0 && offering.every(offersWorkNow);
}

/** An offer of work for now: the offer beside a time scope, a local object, or "now" outside a standing marker. */
function offersWorkNow(s: Sentence): boolean {
  if (s.hits(P.offers).length === 0) return false;
  const standing = s.hits(P.standing);
  const now = matchesOf(/现在|right now|\bnow\b/gu, s.span.text).some((m) => !standing.some((h) => h.index <= m.index && m.index < h.end));
  return s.hits(P.temporary).length + s.hits(P.localObjects).length > 0 || now;
}

// What a word of proposing points back with ("I'd recommend it", "我建议这么做", "推荐这样").
const POINTING_OBJECT = /^\s*(?:(?:doing\s+)?(?:it|that|this|so)(?![\p{L}])|这样做|这么做|这样|这么办|这个做法)/u;
function pointsBack(s: Sentence): boolean {
  return s.hits(P.proposals).some((h) => POINTING_OBJECT.test(s.span.text.slice(h.end)));
}

const LIST_OF_PROPOSALS = /\b(?:suggestions|recommendations|proposals)\s*[:：]\s*$/u;

/**
 * M-5.6: discussion context rests on what the user said, and a statement of a code fact is not discussion.
 * Takes the located user quotes; returns null when one of them is discussion.
 */
export function judgeDiscussion(
  userQuotes: readonly { text: string; begin: number; end: number }[],
  next: string | null = null,
): GateProblem | null {
  if (userQuotes.length === 0) return problem('assistant_only', 'discussion context needs a quote of the user');
  // "A vs B is what we're weighing" then "nvm, ignore the comparison, we already picked A": the next turn of the
  // user takes the discussion back, or opens by dropping it.
  if (next !== null && (retractsLater(next) || turnsDown(next))) return problem('retracted', 'the next turn takes the discussion back');
  const spoken = userQuotes.filter((q) => !inCodeOrOutput(q.text, q.begin));
  if (spoken.length === 0) return problem('code_or_tool_output', 'every user quote sits in pasted code or output');
  // A quote that takes in a pasted log or code below its own words is not the user's words alone (M-5.6).
  if (spoken.some((q) => linesOf(q.text, q.begin, q.end).some((at) => inCodeOrOutput(q.text, at)))) {
    return problem('code_or_tool_output', 'the quote takes in pasted code or output');
  }
  // Why the last quote is not discussion, when it is not a code fact.
  let why: GateProblem | null = null;
  let held: GateProblem | null = null;
  for (const q of spoken) {
    const sentences = sentencesCovering(sentencesOf(q.text), q.begin, q.end);
    // "我们在排查…，算了，先不看这个了": a later clause of the same turn drops what the quote says.
    if (dropsLater(q.text.slice(q.end))) {
      why = problem('retracted', 'a later clause of the turn drops the statement');
      continue;
    }
    // Words the user quotes ("有人说 “always wrap …”，真的假的？") are someone else's, not the discussion.
    if (quotedRanges(q.text).some(([a, b]) => a < q.begin + 1 && q.end <= b && b - a > q.end - q.begin)) {
      why = problem('quoted_speech', 'the quoted words stand inside quotation marks');
      continue;
    }
    // "我上一个项目是用 Bazel 构建的": another project's state is not this discussion; "估计以后会迁到…吧": a guess.
    const own = sentences.map((piece) => new Sentence(q.text, piece));
    // … nor is the state of another project or another party's ("隔壁那个 repo …，他们不打算升").
    // (A clause of the user's own at work after it — "…，我们先从埋点看起" — is this discussion.)
    const elsewhere = (s: Sentence): boolean =>
      (s.hits(P.otherProjects).length > 0 ||
        // ("the boss fight's state machine": a party word inside a thing's name is no party.)
        s.hits(P.thirdParties).some((h) => !s.hits(P.notParties).some((t) => t.index <= h.index && t.end >= h.end))) &&
      !s.clauses.some((_, i) => i > 0 && OWN_AT_WORK.test(s.clauseText(i)));
    if (own.every((s) => elsewhere(s) && (s.hits(P.discussion).length === 0 || !FIRST_PERSON.test(s.span.text)))) {
      why = problem('other_project', 'the state of another project or party, not this discussion');
      continue;
    }
    if (
      own.every(
        (s) =>
          s.hits(P.speculation).length > 0 &&
          s.hits(P.discussion).length === 0 &&
          (!FIRST_PERSON.test(s.span.text) || /会/u.test(s.span.text)),
      )
    ) {
      why = problem('speculation', 'a guess about what will happen, not this discussion');
      continue;
    }
    // "got it, thanks", "好的，收到": an acknowledgement says nothing of its own to discuss.
    if (ACKNOWLEDGEMENT.test(fold(q.text.slice(q.begin, q.end)))) {
      why = problem('no_speech_act', 'an acknowledgement says nothing of its own to discuss');
      continue;
    }
    // "以后给我用表格对比方案": a standing marker opening the sentence, then a request to the assistant, is a standing
    // wish (a preference), not what is being discussed; so is one about how the assistant answers ("以后回答都…").
    const wish = (s: Sentence, h: Hit): boolean =>
      ADDRESSED.test(s.span.text.slice(h.end)) ||
      ANSWERS_TOPIC.test(s.span.text.slice(h.index)) ||
      s.hits(P.aboutAnswers, h.end).length > 0;
    if (own.every((s) => s.hits(P.standing).some((h) => STANDING_WISH.test(s.span.text.slice(0, h.index)) && wish(s, h)))) {
      why = problem('no_speech_act', 'a standing wish to the assistant is a preference, not discussion');
      continue;
    }
    // A fact shape beside a word of discussion alone ("那个 401 的问题是 token 过期…"): no person at work, no open
    // choice or question — conflicting evidence.
    let worded = false;
    const isFact = sentences.every((piece) => {
      const s = new Sentence(q.text, piece);
      const trimmed = s.span.text.trim();
      const fact =
        s.hits(P.codeFacts).length > 0 ||
        ZH_FACT.test(trimmed) ||
        EN_FACT.test(trimmed) ||
        [trimmed, ...s.clauses.map((_, i) => s.clauseText(i).trim())].some((c) => FACT_CLAUSES.some((re) => re.test(c))) ||
        s.clauses.some((_, i) => {
          const c = s.clauseText(i);
          return !FIRST_PERSON.test(c) && IMPERSONAL_FACT_CLAUSES.some((re) => re.test(c));
        });
      // "用 TiDB 还是 MySQL 还没决定": an open choice is the discussion itself, whatever facts it names; so is a
      // first person at work ("我们这几天在做迁移，今天先处理…报错") and a goal as the subject ("现在的重点是…").
      if (!fact || s.hits(P.undecided).length > 0 || QUESTION_MARK.test(s.span.text)) return false;
      if (s.clauses.some((_, i) => atWork(s.clauseText(i))) || GOAL_SUBJECT.test(s.span.text)) return false;
      if (s.hits(P.discussion).length === 0) return true;
      // "现在在排查…的问题": a progressive of discussing, its first person left out, is someone at work.
      if (FIRST_PERSON.test(s.span.text) || s.hits(P.discussion).some((h) => /^(?:正?在)|ing$/u.test(h.text))) return false;
      worded = true;
      return true;
    });
    // "Background for this conversation: …", "背景：…": a label naming what follows as this thread's context is
    // evidence of discussing (code facts with no word of discussion are still code facts).
    const labelled = own.length > 0 && CONTEXT_LABEL.test(own[0]!.span.text);
    if (isFact && worded) {
      if (labelled) return null;
      held ??= problem('weak_evidence', 'a statement of fact beside a word of discussion', 'suggest');
      continue;
    }
    if (!isFact) {
      // Accepted on positive evidence of discussing: a word of it, an open choice or question, a first person at
      // work, a goal. A statement with none of these is held for the user.
      const discussing = own.some(
        (s) =>
          s.hits(P.discussion).length > 0 ||
          s.hits(P.undecided).length > 0 ||
          QUESTION_MARK.test(s.span.text) ||
          /[吗呢]/u.test(s.span.text) ||
          s.hits(P.aNotA).length > 0 ||
          AT_WORK.test(s.span.text) ||
          GOAL.test(s.span.text),
      );
      if (discussing || labelled) return null;
      held ??= problem('weak_evidence', 'nothing in it says what is being discussed', 'suggest');
    }
  }
  return held ?? why ?? problem('code_fact', 'a statement of a code fact is not discussion context');
}

const STANDING_WISH = /^[\s\p{P}]*$/u;
const CONTEXT_LABEL = new RegExp(
  String.raw`^\s*(?:(?:some\s+)?background|context|for context)` +
    String.raw`(?:\s+(?:for|on)\s+(?:this|the)\s+(?:conversation|thread|discussion|chat))?\s*[:：]` +
    String.raw`|^\s*(?:背景|上下文|前情提要)(?:是|一下)?\s*[:：]`,
  'u',
);
// The marker, then the assistant's answers as the topic ("以后回答都…", "from now on, your answers …").
const ANSWERS_TOPIC =
  /^\p{Script=Han}{2,3}(?:你的)?(?:回答|回复|答复)|^(?:[a-z]+\s+){1,3},?\s*(?:your\s+)?(?:answers|replies|responses)\b/u;
const ADDRESSED = /^[\s,，]*(?:都|就|一律)?(?:给我|帮我|请|你(?!们)|(?:please\s+)?(?:give me|show me|answer|reply|write|use)\b)/u;

// "先不看这个了", "不聊这个了", "let's talk about something else": a clause that drops the topic itself.
const DROP_TOPIC = new RegExp(
  `^(?:那|那就|我们|咱们)?(?:${L.HOLD_ADVERBS.join('|')})?(?:不|别)\\p{Script=Han}{1,2}(?:这个|这事|这块|这些|它|那个)了?$` +
    // "…——不聊了，下一个": a verb of talking stopped, no object needed, or a move to the next topic.
    `|^(?:那|那就|我们|咱们)?(?:${L.HOLD_ADVERBS.join('|')})?(?:不|别)再?(?:聊|谈|讨论|说)了$|^(?:下一个|下个)(?:问题|话题)?$` +
    "|^(?:let's|let us|we'll|i'll)\\s+(?:look at|talk about|move on to|switch to|do)\\s+something else$|^(?:let's\\s+)?move on$" +
    '|^next (?:question|topic)$',
  'u',
);

/** True when a clause of the text drops what was said before it: a bare retraction, or a drop of the topic. */
function dropsLater(rest: string): boolean {
  if (rest.trim().length === 0) return false;
  // A pointing word and a drop ("这个先 hold", "drop that") drops it as well.
  if (dropsBack(rest)) return true;
  return fold(rest)
    .split(/[，,。.!！;；?？\n—–]|\s-\s/u)
    .map((c) => c.trim())
    .some((c) => {
      if (c.length === 0) return false;
      const span = new Span(c);
      return DROP_TOPIC.test(c) || P.retractions.find(span).some((h) => bareRetraction(span, h));
    });
}

const ACKNOWLEDGEMENT = new RegExp(`^[\\s\\p{P}]*(?:${anyOf([...L.ACKNOWLEDGEMENTS.zh, ...L.ACKNOWLEDGEMENTS.en])}[\\s\\p{P}]*)+$`, 'u');
// A first person at work on something ("我们在排查", "我这周在准备", "we're comparing", "let's first"), not just "我".
const AT_WORK = new RegExp(
  '(?:我们|咱们|我(?!们))(?!的)[^，,。]{0,6}?(?:在|正在|想|打算|准备|卡在|还在|刚|已经|一直)' +
    // "当前在 debug 的是…", "现在在排查…": a progressive of work after an adverb of now, its first person left out.
    `|(?:${L.NOW_AT_WORK.adverbs.join('|')})正?在\\s*(?:${L.NOW_AT_WORK.verbs.join('|')})` +
    "|(?<![\\p{L}])(?:we're|we are|i'm|i am)\\s+(?:still\\s+|now\\s+)?[a-z]+ing\\b" +
    "|(?<![\\p{L}])let's\\b|(?<![\\p{L}])we\\s+(?:need|want|have)\\s+to\\b",
  'u',
);
const GOAL = /目标|重点|主要|任务|聚焦|focus|goal|plan|context|today|这周|今天|接下来|下一步|先/u;
/**
 * A clause of a first person at work ("我们这几天在做迁移"), not one describing a state with a copula ("我们这边
 * 一直是三副本") nor a source remark in the 是…的 form ("我刚查的").
 */
function atWork(clause: string): boolean {
  const m = AT_WORK.exec(clause);
  if (!m) return false;
  return !/^\s*(?:是|有|为)/u.test(clause.slice(m.index + m[0].length)) && !/的[\s\p{P}]*$/u.test(clause);
}
// A goal word as the subject of 是 / is ("现在的 focus 是把 p99 降下来", "the goal today is …").
const GOAL_SUBJECT = /(?:目标|重点|任务|focus|goal|priority)\s*(?:是|就是|\bis\b)/u;
// A clause opened by the user's own first person at work or planning ("我们先从前端埋点看起").
const OWN_AT_WORK = /^[\s\p{P}]*(?:那|所以)?(?:我们|咱们|我(?!们))(?!的)/u;
const INTERJECTION_ONLY = /^[\s\p{P}]*(?:(?:hmm+|um+|uh+|erm?|well|oh|ah|嗯+|呃+|额+|哦+|啊+)[\s\p{P}]*)?$/u;
const FIRST_PERSON = /我|咱们|(?<![\p{L}])(?:we|i|i'm|we're|let's|our)(?![\p{L}])/u;

/** Offsets of the lines that start inside [begin, end). */
function linesOf(text: string, begin: number, end: number): number[] {
  const out: number[] = [];
  for (let at = text.indexOf('\n', begin); at >= 0 && at + 1 < end; at = text.indexOf('\n', at + 1)) out.push(at + 1);
  return out;
}

/** Marker words removed from a quote before the content-anchor check, so a marker alone never anchors. */
const ANCHOR_STRIP = new Phrases(
  [
    L.STANDING,
    L.PREFERENCE_VERBS,
    L.DECISION,
    L.RULING_LABELS,
    L.TEMPORARY,
    L.HYPOTHETICAL,
    L.CONDITIONAL_OPENINGS,
    L.EXAMPLE_OPENINGS,
    L.UNDECIDED,
    L.CONFIRMATIONS,
    L.PROPOSALS,
    L.RULING_VERBS,
  ].reduce<{ zh: string[]; en: string[] }>(
    (all, words) => {
      // A gap pattern ("每次…都") strips its fixed parts only: the gap is what the statement is about.
      all.zh.push(...words.zh.flatMap(fixedParts));
      all.en.push(...words.en.flatMap(fixedParts));
      return all;
    },
    { zh: [], en: [] },
  ),
);

/** The quote without its speech-act words: what the statement is about. */
export function stripMarkers(text: string): string {
  return ANCHOR_STRIP.strip(new Span(fold(text)));
}

/**
 * "ok, the second one" beside a quote of the first item: the confirmation names items of the list, and not the
 * one the proposal quote is (items.ts). It confirms another item, not this one.
 */
export function namesOtherItem(
  userText: string,
  begin: number,
  end: number,
  proposal: { text: string; begin: number; end: number },
): boolean {
  const named = confirmedItems(fold(userText.slice(begin, end)));
  const item = listedItem(proposal.text, proposal.begin, proposal.end);
  return named !== null && item > 0 && !named.items.includes(item);
}

/**
 * The first clause of a confirmation names the very item the proposal quote is ("第一条可以" beside "1）把 …",
 * "A." beside "Option A: …"; items.ts): the confirmation is bound to it, and what the rest of the turn says about
 * other items ("第二条先别动") is not about this one. Returns the confirming clause's end, or -1.
 */
export function boundConfirmation(
  userText: string,
  begin: number,
  end: number,
  proposal: { text: string; begin: number; end: number },
): number {
  const quote = fold(userText.slice(begin, end));
  const named = confirmedItems(quote);
  const item = listedItem(proposal.text, proposal.begin, proposal.end);
  if (!named || item === 0 || !named.items.includes(item)) return -1;
  const namedEnd = named.end;
  // The rest of the confirming clause may only confirm ("可以", "OK", "照做", "就这个") — not hedge or ask.
  // (The clause is the one the label stands in: "yep, let's do B." names B after its lead.)
  const after = quote.slice(namedEnd).search(/[，,。.;；!！?？\n]/u);
  const clauseEnd = after < 0 ? -1 : namedEnd + after;
  const clause = clauseEnd < 0 ? quote : quote.slice(0, clauseEnd);
  const rest = clause.slice(namedEnd);
  if (QUESTION_MARK.test(quote.slice(0, clauseEnd < 0 ? quote.length : clauseEnd + 1))) return -1;
  if (P.undecided.has(new Span(rest)) || P.speculation.has(new Span(rest)) || P.negations.has(new Span(rest))) return -1;
  return begin + (clauseEnd < 0 ? quote.length : clauseEnd);
}
