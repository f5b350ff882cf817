import { sentencesCovering, sentencesOf } from './clauses.js';
import * as L from './lexicon.js';
import { P } from './phrases.js';
import { type GateProblem, problem, type StatementKind } from './verdict.js';
import { fold, Span } from './words.js';

/**
 * A second reading of a statement the gate has judged (M-5.6, M-5.7): five shapes of a whole sentence that the
 * clause-level reading does not see. Each function reads one shape and returns the verdict it gives, or
 * undefined when its shape is absent and the first reading stands.
 *
 * - a report of the current state, then a one-off imperative ("CI is green, ship it."): a task for now;
 * - a reporting frame after the rule ("…, said my old team lead", "…，这是我们组长说的"): another party's rule;
 * - a ruling label whose body is a setting and its value ("结论是 targetSdk 34。"): a decision;
 * - our or this repo's present-tense way of working, scoped ("We use pnpm here, not npm."): a ruling;
 * - a proposal of a rule in question form ("How about a convention: …?"): held for the user.
 */
export function reread(found: GateProblem | null, text: string, begin: number, end: number, kind: StatementKind): GateProblem | null {
  const sentences = sentencesOf(text);
  const covering = sentencesCovering(sentences, begin, end);
  if (covering.length === 0) return found;
  const first = covering[0]!;
  const last = covering[covering.length - 1]!;
  const said = fold(text.slice(first.start, last.end)).trim();
  // Each sentence the quote stands in, then the one after it.
  const parts = [...covering, sentences[sentences.indexOf(last) + 1]].map((piece) =>
    piece ? fold(text.slice(piece.start, piece.end)).trim() : '',
  );
  // The first shape present decides; undefined from each means its shape is absent.
  let verdict = nowTaskAfterStatus(found, said);
  if (verdict === undefined) verdict = frameAfter(found, parts);
  if (verdict === undefined) verdict = labelledSetting(found, said, kind);
  if (verdict === undefined) verdict = presentConvention(found, said);
  if (verdict === undefined) verdict = proposalQuestion(found, said);
  return verdict === undefined ? found : verdict;
}

type Reading = GateProblem | null | undefined;

/** A regular expression written in pieces, for line length. */
function re(...pieces: string[]): RegExp {
  return new RegExp(pieces.join(''), 'u');
}

const escape = (entry: string): string => entry.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
/** The Chinese entries of a word list as an alternation (matched anywhere). */
const zhOf = (words: L.Words): string => words.zh.map(escape).join('|');
/** The English entries as an alternation (the caller puts the word boundaries). */
const enOf = (words: L.Words): string => words.en.map(escape).join('|');
/** A Chinese entry anywhere or an English one as whole words. */
function anyOf(words: L.Words): RegExp {
  const parts = [words.zh.length > 0 ? zhOf(words) : '', words.en.length > 0 ? String.raw`\b(?:${enOf(words)})\b` : ''];
  return new RegExp(parts.filter((part) => part !== '').join('|'), 'u');
}

/** A verdict the second reading may overrule: accepted, held on weak evidence, or refused as no act at all. */
const accepted = (found: GateProblem | null): boolean => found === null || found.reason === 'weak_evidence';

// What vetoes an acceptance anywhere in the sentence: a hedge, a hypothetical, a temporary scope, another party.
function hedged(said: string): boolean {
  const span = new Span(said);
  return [P.undecided, P.speculation, P.hypothetical, P.temporary, P.thirdParties].some((words) => words.has(span));
}

/** The comma- and dash-separated parts of a folded sentence, trailing punctuation dropped. */
function commaParts(said: string): string[] {
  return said
    .split(/[，,;；:：—–]|\s-\s/u)
    .map((c) => c.replace(/[\s\p{P}]+$/u, '').trim())
    .filter((c) => c.length > 0);
}

// A standing scope anywhere in the sentence: the imperative is a rule, not a task ("以后", "每次", "always").
const STANDING_SCOPE = anyOf(L.REREAD_STANDING_SCOPES);

// A report of the state things are in now: a perfective or resultative predicate ("都过了", "绿了", "is green").
const ZH_STATUS = re(`(?:${zhOf(L.REREAD_STATUS)})$|(?:已经|都).{0,8}了$`);
const EN_STATUS = re(
  String.raw`\b(?:${enOf(L.REREAD_COPULAS)})\s+(?:all\s+)?(?:${enOf(L.REREAD_STATES)})\b|\b(?:${enOf(L.REREAD_STATUS)})\b`,
);
// An imperative for now: a short clause ending on 吧 (Chinese), or an English clause opening with a bare verb (no
// subject, auxiliary or determiner before it) and short.
const ZH_NOW_IMPERATIVE = re(`^(?:${zhOf(L.REREAD_NOW_OPENERS)})?[^，,。]{1,10}吧$`);
const EN_NOW_OPENER = re(String.raw`^(?:${enOf(L.REREAD_NOW_OPENERS)})\s+`);
const EN_BARE_VERB = re(String.raw`^(?:(?:${enOf(L.REREAD_IMPERATIVE_LEADS)})\s+)?[a-z]+\b`);
const NOT_VERBS = [...L.SHAPE.enNotVerbs, ...L.REREAD_NOT_VERBS.en].map(escape).join('|');
const EN_NOT_VERB = re(String.raw`^(?:${NOT_VERBS})\b`);

/** Mechanism 1: "所有测试都过了，合并吧。", "CI is green, ship it.": a status report, then a one-off imperative. */
function nowTaskAfterStatus(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || STANDING_SCOPE.test(said.replace(/所有[^，,。]*(?:都)?[^，,。]*了/u, ''))) return undefined;
  const clauses = commaParts(said.replace(/[.。!！]+$/u, ''));
  if (clauses.length < 2) return undefined;
  const order = clauses.at(-1)!.replace(EN_NOW_OPENER, '');
  const status = clauses.slice(0, -1).some((c) => ZH_STATUS.test(c) || EN_STATUS.test(c));
  const zhOrder = ZH_NOW_IMPERATIVE.test(order);
  const enOrder = EN_BARE_VERB.test(order) && !EN_NOT_VERB.test(order) && order.split(/\s+/u).length <= 5;
  if (!status || !(zhOrder || enOrder)) return undefined;
  return problem('temporary', 'a one-off imperative after a report of the current state: a task for now');
}

// A reporting frame closing the sentence or following it: "…, said my lead", "…, according to X", "这是 X 说的".
// (The user's own pronouns after the frame word make it the user's: "…, said I", "That's what we said.")
const EN_FRAME_AFTER = re(
  String.raw`[,，]\s*(?:(?:${enOf(L.REREAD_SAID_BY)})\s+(?!i\b|me\b|we\b|us\b)[a-z][\w' ]{1,40}|[a-z][\w`,
  String.raw`' ]{1,40}\s+(?:${enOf(L.REREAD_TOLD)}))[\s\p{P}]*$`,
);
const EN_FRAME_NEXT = re(
  String.raw`^(?:${enOf(L.REREAD_FRAME_LEADS)})\s+(?:what\s+)?(?!i\b|we\b|our\b)[a-z][\w' ]{1,40}(?:${enOf(L.REREAD_FRAME_ENDS)})\b`,
);
const ZH_FRAME = re(
  String.raw`(?:^|[，,—])\s*(?:${zhOf(L.REREAD_FRAME_LEADS)})?(?!我们?(?:说|定|讲)的)[^，,。我]{0,4}?`,
  String.raw`(?:[\p{Script=Han}a-z ]{1,12})(?:${zhOf(L.REREAD_FRAME_ENDS)})[\s\p{P}]*$`,
);
const PARTY_NOUN = anyOf(L.REREAD_PARTY_NOUNS);
// What takes the reported rule on for this project: held for the user.
const ADOPTED = anyOf(L.REREAD_ADOPTED);

/** Mechanism 2: "Always squash before merging, said my old team lead.", "…，这是我们组长说的。" */
function frameAfter(found: GateProblem | null, parts: readonly string[]): Reading {
  if (found !== null && found.verdict !== 'suggest') return undefined;
  for (let i = 0; i + 1 < parts.length; i += 1) {
    const [said, following] = [parts[i]!, parts[i + 1]!];
    const frame =
      EN_FRAME_AFTER.exec(said)?.[0] ?? EN_FRAME_NEXT.exec(following)?.[0] ?? ZH_FRAME.exec(said)?.[0] ?? ZH_FRAME.exec(following)?.[0];
    if (frame !== undefined) return framed(frame, said, following);
  }
  return undefined;
}

function framed(frame: string, said: string, following: string): Reading {
  // The frame must name someone other than the user ("组长", "my old team lead"), not "我们定的".
  if (!P.thirdParties.has(new Span(frame)) && !PARTY_NOUN.test(frame)) return undefined;
  if (ADOPTED.test(following) || ADOPTED.test(said.slice(0, said.length - frame.length)))
    return problem('third_party', 'another party said the rule and the user takes it on: for the user to confirm', 'suggest');
  return problem('third_party', 'a reporting frame after the rule gives it to another party');
}

const LABEL_WORDS = `${zhOf(L.REREAD_LABELS)}|${enOf(L.REREAD_LABELS)}`;
// A ruling label at the start, then a colon or a copula: "结论是", "定了：", "Decision:", "The decision is".
const LABELLED = re(
  String.raw`^(?:(?:ok|okay|好|好的)[\s\p{P}]*)?(?:the\s+)?(?:最终|final\s+)?(?:${LABEL_WORDS})`,
  String.raw`(?:\s*(?:[:：—–]|是(?!否|不是)|\bis\b|就是)\s*)`,
);
// A label said to be still open: "Decision pending:", "结论待定：", "决定还没定：".
const PENDING_LABEL = re(String.raw`^(?:${LABEL_WORDS})\s*(?:is\s+)?(?:${enOf(L.REREAD_PENDING)}|${zhOf(L.REREAD_PENDING)})\s*[:：—–]\s*`);
// A finding: a count of things and what happened to them, or a result verb in the perfective.
const FINDING = re(
  String.raw`^\d+\s*(?:${zhOf(L.REREAD_COUNTERS)})[^，,。]{0,12}(?:${zhOf(L.REREAD_RESULTS)})了$`,
  String.raw`|^\d+\s+\w+(?:\s+\w+)?\s+(?:${enOf(L.REREAD_RESULTS)})$`,
);
// The body: a setting named by a word or two and its value, with no verb ("targetSdk 34", "JDK 版本 21", "Node 20 LTS").
const SETTING_VALUE = re(
  String.raw`^(?:[a-z][\w.+#-]*|[\p{Script=Han}]{1,6})(?:\s*(?:[a-z][\w.+#-]*|[\p{Script=Han}]{1,4})){0`,
  String.raw`,2}\s*(?:[=:：]|用|为)?\s*v?\d[\w.]*(?:\s*(?:lts|[a-z]{1,3}|版|版本|秒|分钟|天))?$`,
);

/** Mechanism 3: "结论是 targetSdk 34。", "定了：JDK 版本 21。", "Decision: Node 20 LTS". */
function labelledSetting(found: GateProblem | null, said: string, kind: StatementKind): Reading {
  if (kind !== 'project_decision') return undefined;
  const label = LABELLED.exec(said) ?? PENDING_LABEL.exec(said);
  // "Decision pending: maybe Node 22.": a label whose ruling is still open or only guessed rules nothing.
  if (label && found === null && (PENDING_LABEL.test(said) || P.speculation.has(new Span(said.slice(label[0].length)))))
    return problem('undecided', 'the labelled ruling is still open or only guessed');
  // "结论是 34 个测试失败了。", "Result is: 3 tests failed.": a finding under the label reports, it does not rule.
  if (label && found === null && FINDING.test(said.slice(label[0].length).replace(/[\s\p{P}]+$/u, '')))
    return problem('description', 'the label introduces a finding, not a ruling');
  if (found?.reason !== 'no_speech_act' || !label || /[?？]/u.test(said) || hedged(said)) return undefined;
  const body = said.slice(label[0].length).replace(/[\s\p{P}]+$/u, '');
  return SETTING_VALUE.test(body) ? null : undefined;
}

// Who does things this way here: this repo or we, in the present tense.
const EN_OURS = re(
  String.raw`^(?:(?:in\s+)?(?:this|our)\s+(?:${enOf(L.REREAD_PLACES)})\s*,?\s*`,
  String.raw`(?:we\s+)?|we\s+|here\s+we\s+)(?:only\s+|always\s+)?([a-z]+)\b`,
);
const ZH_OURS = re(
  String.raw`^(?:这个|我们这个|本)?(?:${zhOf(L.REREAD_PLACES)}|${enOf(L.REREAD_PLACES)})(?:里|中|这边)?(?:我们)?|^我们(?:这边|这里|项目里|仓库里)?`,
);
const ZH_HABIT = re(`^(?:${zhOf(L.REREAD_HABIT_ADVERBS)})?(?:${zhOf(L.REREAD_HABIT_VERBS)})`);
const NOT_HABIT = re(`^(?:${enOf(L.REREAD_NOT_HABITS)})$`);
// The scope that makes it a ruling of this project and not a description: here, only, against an alternative.
const EN_SCOPE = re(String.raw`\b(?:${enOf(L.REREAD_SCOPES)})\b`);
const ZH_SCOPE = re(zhOf(L.REREAD_SCOPES));
// A practice of the past with nothing saying it goes on ("we switched last sprint and we're keeping it" does).
const WAS_ONCE = anyOf(L.REREAD_WAS_ONCE);
const STILL = anyOf(L.REREAD_STILL);
const PAST = anyOf(L.REREAD_PAST);
// "Only pull the changed files when you review.": a restricting imperative under a recurring occasion.
const ONLY_WHEN = re(
  String.raw`^(?:${enOf(L.REREAD_ONLY)})\s+(?!if you (?:want|like)\b)[a-z]+\b.{2,60}\b(?:${enOf(L.REREAD_OCCASIONS)})\s+you\b`,
);
const ZH_ONLY_WHEN = re(
  String.raw`^(?:你)?[^，,。]{1,16}(?:${zhOf(L.REREAD_OCCASIONS)})[，,\s]*(?:${zhOf(L.REREAD_ONLY)})[^，,。]{2,20}$`,
  String.raw`|^(?:${zhOf(L.REREAD_ONLY)})[^，,。]{2,16}(?:${zhOf(L.REREAD_OCCASIONS)})`,
);

/** Mechanism 4: "This repo uses squash merges only.", "We use pnpm here, not npm.", "Only pull … when you review." */
function presentConvention(found: GateProblem | null, said: string): Reading {
  const plain = said.replace(/[.。!！]+$/u, '');
  // "我们之前只用 npm，不用 yarn。", "This repo used squash merges until last year.": how things were done before
  // describes the past, not a ruling that stands.
  const past = PAST.test(said);
  const before = WAS_ONCE.test(said) && !STILL.test(said);
  if (found === null && before && (EN_OURS.test(plain) || ZH_OURS.test(plain)) && !STANDING_SCOPE.test(said))
    return problem('description', 'how this project worked before, not a ruling that stands');
  if (found?.reason !== 'weak_evidence' || /[?？]/u.test(said) || hedged(said) || past) return undefined;
  const en = EN_OURS.exec(plain);
  if (en && !/(?:ed|ing)$/u.test(en[1]!) && !NOT_HABIT.test(en[1]!))
    if (EN_SCOPE.test(plain.slice(en[0].length - en[1]!.length))) return null;
  const zh = ZH_OURS.exec(plain);
  if (zh && zh[0].length > 0 && ZH_HABIT.test(plain.slice(zh[0].length)) && ZH_SCOPE.test(plain)) return null;
  if (ONLY_WHEN.test(plain) || ZH_ONLY_WHEN.test(plain)) return null;
  return undefined;
}

// A proposal opener of a question ("how about", "要不要", "不如"), or one closing it ("…怎么样？", "…, how about it?").
const EN_PROPOSE = re(String.raw`^(?:so\s+|ok\s+)?(?:${enOf(L.REREAD_PROPOSALS)})\b`);
const ZH_PROPOSE = re(String.raw`^(?:那|那么)?(?:${zhOf(L.REREAD_PROPOSALS)})|(?:${zhOf(L.REREAD_PROPOSAL_TAGS)})[\s\p{P}]*$`);
const SUBJUNCTIVE = re(String.raw`\bwhat if (?:we|you|i)\s+(?:\w+ed|${enOf(L.REREAD_IRREGULAR_PASTS)})\b`);
// What the proposal is: a rule, not a one-off task.
const RULE_CONTENT = anyOf(L.REREAD_RULE_CONTENT);

/** Mechanism 5: "How about a convention: every migration gets a down script?": held for the user. */
function proposalQuestion(found: GateProblem | null, said: string): Reading {
  if (found === null || !['question', 'no_speech_act'].includes(found.reason) || !/[?？][\s\p{P}]*$/u.test(said)) return undefined;
  if (!(EN_PROPOSE.test(said) || ZH_PROPOSE.test(said)) || !RULE_CONTENT.test(said)) return undefined;
  // "What if we made every handler idempotent?": a past-tense verb after "what if" imagines, it does not propose.
  if (P.thirdParties.has(new Span(said)) || SUBJUNCTIVE.test(said)) return undefined;
  return problem('question', 'the user proposes a rule in question form: held for the user', 'suggest');
}
