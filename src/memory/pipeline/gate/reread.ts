import { sentencesCovering, sentencesOf } from './clauses.js';
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

/** A regular expression written in pieces (String.raw), for line length. */
function re(...pieces: string[]): RegExp {
  return new RegExp(pieces.join(''), 'u');
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
const STANDING_SCOPE = re(
  String.raw`以后|今后|往后|从现在|默认|每次|每个|每回|所有|一律|统一|总是|永远|一直|都要|都得|\b(?:always|never|every|each|whenever|any`,
  String.raw` time|from now on|going forward|by default|in future|from here on)\b`,
);

// A report of the state things are in now: a perfective or resultative predicate ("都过了", "绿了", "is green").
const ZH_STATUS = /(?:过|好|完|绿|通过|跑通|合|修|搞定|完成|没问题|ok|就绪)了$|(?:已经|都).{0,8}了$/u;
const EN_STATUS = re(
  String.raw`\b(?:is|are|'s|'re|looks?|seems?)\s+(?:all\s+)?(?:green|done|ready|passing|fixed|merged|ap`,
  String.raw`proved|good|fine|clean|through|in)\b|\b(?:passed|pass|passes|succeeded|finished|landed|wen`,
  String.raw`t through|is over)\b`,
);
// An imperative for now: a short clause ending on 吧 (Chinese), or an English clause opening with a bare verb (no
// subject, auxiliary or determiner before it) and short.
const ZH_NOW_IMPERATIVE = /^(?:那|那就|就|直接|现在|马上|先)?[^，,。]{1,10}吧$/u;
const EN_NOT_VERB = re(
  String.raw`^(?:i|we|you|they|he|she|it|this|that|these|those|the|a|an|my|our|your|is|are|was|were|do|`,
  String.raw`does|did|can|could|will|would|should|must|may|might|if|when|so|and|but|then|not|no|please)`,
  String.raw`\b`,
);

/** Mechanism 1: "所有测试都过了，合并吧。", "CI is green, ship it.": a status report, then a one-off imperative. */
function nowTaskAfterStatus(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || STANDING_SCOPE.test(said.replace(/所有[^，,。]*(?:都)?[^，,。]*了/u, ''))) return undefined;
  const clauses = commaParts(said.replace(/[.。!！]+$/u, ''));
  if (clauses.length < 2) return undefined;
  const order = clauses.at(-1)!.replace(/^(?:so|then|ok|okay|alright|now)\s+/u, '');
  const status = clauses.slice(0, -1).some((c) => ZH_STATUS.test(c) || EN_STATUS.test(c));
  const zhOrder = ZH_NOW_IMPERATIVE.test(order);
  const enOrder = /^(?:let's\s+)?[a-z]+\b/u.test(order) && !EN_NOT_VERB.test(order) && order.split(/\s+/u).length <= 5;
  if (!status || !(zhOrder || enOrder)) return undefined;
  return problem('temporary', 'a one-off imperative after a report of the current state: a task for now');
}

// A reporting frame closing the sentence or following it: "…, said my lead", "…, according to X", "这是 X 说的".
const EN_FRAME_AFTER = re(
  String.raw`[,，]\s*(?:(?:said|says|per|according to)\s+(?!i\b|me\b|we\b|us\b)[a-z][\w' ]{1,40}|[a-z][\w`,
  String.raw`' ]{1,40}\s+(?:said|says|told me|told us|insists|insisted))[\s\p{P}]*$`,
);
const EN_FRAME_NEXT =
  /^(?:that's|that is|that was|this is)\s+(?:what\s+)?(?!i\b|we\b|our\b)[a-z][\w' ]{1,40}(?:said|says|told|rule|advice)\b/u;
const ZH_FRAME = re(
  String.raw`(?:^|[，,—])\s*(?:这是|这是我们|这个是|这条是|是|听)?(?!我们?(?:说|定|讲)的)[^，,。我]{0,4}?`,
  String.raw`(?:[\p{Script=Han}a-z ]{1,12})(?:说的|讲的|要求的|定的规矩|的规矩|的习惯|的说法)[\s\p{P}]*$`,
);
// What takes the reported rule on for this project: held for the user.
const ADOPTED =
  /我们也|这边也|这里也|我们这儿也|照这个来|\b(?:we do (?:that|the same|it) here|here too|we follow (?:it|that)|and we do)\b/u;

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
  if (!P.thirdParties.has(new Span(frame)) && !/\b(?:lead|manager|boss|team|cto|architect|colleague|mentor|he|she|they)\b/u.test(frame))
    return undefined;
  if (ADOPTED.test(following) || ADOPTED.test(said.slice(0, said.length - frame.length)))
    return problem('third_party', 'another party said the rule and the user takes it on: for the user to confirm', 'suggest');
  return problem('third_party', 'a reporting frame after the rule gives it to another party');
}

const LABEL_WORDS = ['结论', '决定', '定了', '决议', '定论', '拍板', 'decision', 'ruling', 'verdict', 'resolution', 'final call'];
// A ruling label at the start, then a colon or a copula: "结论是", "定了：", "Decision:", "The decision is".
const LABELLED = new RegExp(
  `^(?:(?:ok|okay|好|好的)[\\s\\p{P}]*)?(?:the\\s+)?(?:最终|final\\s+)?(?:${LABEL_WORDS.join('|')})(?:\\s*(?:[:：—–]|是(?!否|不是)|\\bis\\b|就是)\\s*)`,
  'u',
);
// A label said to be still open: "Decision pending:", "结论待定：", "决定还没定：".
const PENDING_LABEL =
  /^(?:decision|ruling|verdict|结论|决定)\s*(?:is\s+)?(?:pending|open|tbd|to be decided|待定|未定|还没定|还没出)\s*[:：—–]\s*/u;
// A finding: a count of things and what happened to them, or a result verb in the perfective.
const FINDING =
  /^\d+\s*(?:个|条|次|项|处)[^，,。]{0,12}(?:失败|通过|挂|报错|崩|超时)了$|^\d+\s+\w+(?:\s+\w+)?\s+(?:failed|passed|broke|crashed|timed out)$/u;
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
  String.raw`^(?:(?:in\s+)?(?:this|our)\s+(?:repo|repository|project|codebase|monorepo|service)\s*,?\s*`,
  String.raw`(?:we\s+)?|we\s+|here\s+we\s+)(?:only\s+|always\s+)?([a-z]+)\b`,
);
const ZH_OURS = /^(?:这个|我们这个|本)?(?:仓库|项目|repo|代码库)(?:里|中|这边)?(?:我们)?|^我们(?:这边|这里|项目里|仓库里)?/u;
const ZH_HABIT = /^(?:都|只|一律|统一)?(?:用|使用|采用|走|跑|只用|只走)/u;
// The scope that makes it a ruling of this project and not a description: here, only, against an alternative.
const EN_SCOPE = /\b(?:here|in this repo|only|not|instead of|rather than|never)\b/u;
const ZH_SCOPE = /只|不用|而不是|不是|这边|这里|别用/u;
// A practice of the past with nothing saying it goes on ("we switched last sprint and we're keeping it" does).
const WAS_ONCE = /以前|之前|过去|原来|\b(?:used to|until|previously|back then)\b/u;
const STILL = /继续|还是|仍然|依然|现在|\b(?:still|keep|keeping|stays?|now|again)\b/u;
const ZH_PAST = /以前|之前|过去|去年|上个月|原来/u;
const EN_PAST = /\b(?:used to|last (?:year|month|week|sprint)|before|until|previously|back then)\b/u;
// "Only pull the changed files when you review.": a restricting imperative under a recurring occasion.
const ONLY_WHEN = /^only\s+(?!if you (?:want|like)\b)[a-z]+\b.{2,60}\b(?:when|whenever|every time)\s+you\b/u;
const ZH_ONLY_WHEN = /^(?:你)?[^，,。]{1,16}(?:的时候|时)[，,\s]*(?:只|就只|仅)[^，,。]{2,20}$|^只[^，,。]{2,16}(?:的时候|时)/u;

/** Mechanism 4: "This repo uses squash merges only.", "We use pnpm here, not npm.", "Only pull … when you review." */
function presentConvention(found: GateProblem | null, said: string): Reading {
  const plain = said.replace(/[.。!！]+$/u, '');
  // "我们之前只用 npm，不用 yarn。", "This repo used squash merges until last year.": how things were done before
  // describes the past, not a ruling that stands.
  const past = EN_PAST.test(said) || ZH_PAST.test(said);
  const before = WAS_ONCE.test(said) && !STILL.test(said);
  if (found === null && before && (EN_OURS.test(plain) || ZH_OURS.test(plain)) && !STANDING_SCOPE.test(said))
    return problem('description', 'how this project worked before, not a ruling that stands');
  if (found?.reason !== 'weak_evidence' || /[?？]/u.test(said) || hedged(said) || past) return undefined;
  const en = EN_OURS.exec(plain);
  if (
    en &&
    !/(?:ed|ing)$/u.test(en[1]!) &&
    !/^(?:can|could|should|would|might|may|will|must|need|want|think|guess|were|was|had)$/u.test(en[1]!)
  )
    if (EN_SCOPE.test(plain.slice(en[0].length - en[1]!.length))) return null;
  const zh = ZH_OURS.exec(plain);
  if (zh && zh[0].length > 0 && ZH_HABIT.test(plain.slice(zh[0].length)) && ZH_SCOPE.test(plain)) return null;
  if (ONLY_WHEN.test(plain) || ZH_ONLY_WHEN.test(plain)) return null;
  return undefined;
}

// A proposal opener of a question ("how about", "要不要", "不如"), or one closing it ("…怎么样？", "…, how about it?").
const EN_PROPOSE = /^(?:so\s+|ok\s+)?(?:how about|what about|what if we|shall we|why don't we|should we (?:make|adopt|agree|have))\b/u;
const ZH_PROPOSE =
  /^(?:那|那么)?(?:要不|要不要|不如|咱们要不要|我们要不要|咱们|我们)|(?:怎么样|如何|好不好|行不行|可以吗|好吗)[\s\p{P}]*$/u;
const SUBJUNCTIVE = /\bwhat if (?:we|you|i)\s+(?:\w+ed|made|had|were|went|took|kept|ran|wrote|did|got)\b/u;
// What the proposal is: a rule, not a one-off task.
const RULE_CONTENT = re(
  String.raw`规矩|约定|规范|规则|统一|一律|每个|每次|所有|都要|都得|以后|默认|\b(?:convention|rule|policy|standard|always|every|e`,
  String.raw`ach|all|never|from now on|by default|going forward)\b`,
);

/** Mechanism 5: "How about a convention: every migration gets a down script?": held for the user. */
function proposalQuestion(found: GateProblem | null, said: string): Reading {
  if (found === null || !['question', 'no_speech_act'].includes(found.reason) || !/[?？][\s\p{P}]*$/u.test(said)) return undefined;
  if (!(EN_PROPOSE.test(said) || ZH_PROPOSE.test(said)) || !RULE_CONTENT.test(said)) return undefined;
  // "What if we made every handler idempotent?": a past-tense verb after "what if" imagines, it does not propose.
  if (P.thirdParties.has(new Span(said)) || SUBJUNCTIVE.test(said)) return undefined;
  return problem('question', 'the user proposes a rule in question form: held for the user', 'suggest');
}
