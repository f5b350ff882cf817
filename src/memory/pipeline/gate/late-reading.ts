import { sentencesCovering, sentencesOf } from './clauses.js';
import * as L from './lexicon.js';
import { P } from './phrases.js';
import { type GateProblem, problem, type StatementKind } from './verdict.js';
import { fold, Span } from './words.js';

/**
 * The third reading of a judged statement (M-5.6, M-5.7): cues of a whole sentence or turn that neither the
 * clause-level reading nor the second reading (reread.ts) weighs. Each function reads one mechanism and returns
 * the verdict it gives, or undefined when its shape is absent. Those that take an acceptance away come first;
 * then those that keep a quote standing beside a scope that is not its own.
 */

type Reading = GateProblem | null | undefined;
/** Judges a text of its own (the quoted words alone), as the gate judges any statement. */
export type Rejudge = (text: string) => GateProblem | null;

const escape = (entry: string): string => entry.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
/** A Chinese entry anywhere or an English one as whole words. */
function anyOf(words: L.Words, flags = 'u'): RegExp {
  const parts = [
    words.zh.length > 0 ? words.zh.map(escape).join('|') : '',
    words.en.length > 0 ? String.raw`(?<![\p{L}'])(?:${words.en.map(escape).join('|')})(?![\p{L}])` : '',
  ];
  return new RegExp(parts.filter((part) => part !== '').join('|'), flags);
}
/** The same words as a whole comma part ("…，习惯了。"). */
function wholePart(words: L.Words): RegExp {
  return new RegExp(`^(?:${[...words.zh, ...words.en].map(escape).join('|')})$`, 'u');
}

/** Accepted, or held only on weak evidence. */
const accepted = (found: GateProblem | null): boolean => found === null || found.reason === 'weak_evidence';

/** The comma-, colon- and dash-separated parts of a folded text, trailing punctuation dropped. */
// (The readings split the same sentence again and again: the last few splits are kept.)
const PARTS = new Map<string, string[]>();
function partsOf(said: string): string[] {
  const known = PARTS.get(said);
  if (known) return known;
  if (PARTS.size >= 8) PARTS.clear();
  const parts = split(said);
  PARTS.set(said, parts);
  return parts;
}
function split(said: string): string[] {
  return said
    .split(/[，,;；:：—–。.!！?？\n]|\s-\s|…+|\.{2,}/u)
    .map((c) => c.replace(/[\s\p{P}\p{S}]+$/u, '').trim())
    .filter((c) => c.length > 0);
}

export function lateReading(
  found: GateProblem | null,
  text: string,
  begin: number,
  end: number,
  kind: StatementKind,
  rejudge: Rejudge,
): GateProblem | null {
  const sentences = sentencesOf(text);
  const covering = sentencesCovering(sentences, begin, end);
  if (covering.length === 0) return found;
  const said = fold(text.slice(covering[0]!.start, covering[covering.length - 1]!.end)).trim();
  // (Folded lazily: most statements reach only the readings that need neither.)
  let wholeText: string | undefined;
  let afterText: string | undefined;
  let fromText: string | undefined;
  const whole = (): string => (wholeText ??= fold(text));
  const after = (): string => (afterText ??= fold(text.slice(end)));
  const fromQuote = (): string => (fromText ??= fold(text.slice(begin)));
  const readings: (() => Reading)[] = [
    () => emptyRuling(found, said),
    () => decisionMentioned(found, said),
    () => choiceRegretted(found, said, rejudge),
    () => pointsBackOnly(found, said),
    () => (kind === 'project_decision' ? talkedOverAgain(found, said) : undefined),
    () => (accepted(found) ? oneTimeTail(found, fromQuote()) : undefined),
    () => failingHabit(found, said),
    () => defaultBehaviour(found, text.slice(covering[0]!.start, covering[covering.length - 1]!.end)),
    () => resignedTail(found, said),
    () => assistantHabitComplaint(found, said),
    () => doubtTail(found, said),
    () => nobodyDecided(found, said),
    () => laterMarker(found, said),
    () => disavowed(found, whole()),
    () => forwarded(found, text, begin, end),
    () => misaddressed(found, fromQuote()),
    () => oneOffChain(found, said),
    () => ironicExclamation(found, said),
    () => firmAdoption(found, whole()),
    () => reportTakenUp(found, fold(text.slice(begin, end))),
    () => sourceThenStandingRequest(found, said, kind),
    () => restatedByUser(found, text, begin, end, rejudge),
    () => restatedRule(found, said, rejudge),
    () => (found?.reason === 'question' ? tagAfterStatement(text, begin, end, rejudge) : undefined),
    () => selfQuotedCorrection(found, text, begin, end, rejudge),
    () => practiceTail(found, said, kind),
    () => hedgedAdoption(found, said),
    () => ownRuleAfterAdvice(found, said),
    () => thisProjectAfterOther(found, fold(text.slice(begin, end)), said, rejudge),
    () => comparedProject(found, fold(text.slice(begin, end)), rejudge),
    () => conformsToNorm(found, fold(text.slice(begin, end))),
    () =>
      found !== null && ['temporary', 'retracted'].includes(found.reason)
        ? scopeOutsideQuote(found, text, begin, end, after(), rejudge)
        : undefined,
    () => provisionalChoice(found, said, kind),
    () => cleanCorrection(found, text, end, rejudge),
    () => recurringConditionToAssistant(found, said),
    () => bareWeakener(found, said),
    () => placementRule(found, said, kind),
    () => contentAfterPreference(found, said),
    () => unlessRule(found, said, kind),
    () => declarativeStandingQuestion(found, said),
  ];
  for (const read of readings) {
    const verdict = read();
    if (verdict !== undefined) return verdict;
  }
  void kind;
  return found;
}

const ONE_TIME_TAIL = wholePart(L.LATE_ONE_TIME_TAILS);
// Any of their words, a cheap test first.
const ONE_TIME_WORD = /这次|这一次|这回|本次|此一次|下不为例|\bthis (?:time|once)\b|\bfor this\b/u;
const ONE_TIME_END = new RegExp(
  String.raw`(?:^|[\s\p{P}])(?:${[...L.LATE_ONE_TIME_ENDS.zh, ...L.LATE_ONE_TIME_ENDS.en].map(escape).join('|')})$`,
  'u',
);
/**
 * "from now on answer in English, just this time", "use Postgres this time only": a clause of one time in the act's
 * own sentence (after a comma, not a sentence of its own), or words of one time ending a clause, scope the act to now.
 */
function oneTimeTail(found: GateProblem | null, fromQuote: string): Reading {
  if (!accepted(found) || !ONE_TIME_WORD.test(fromQuote)) return undefined;
  // (The quote's own sentence from the quote on: "…，下不为例，以后还是走 MR" scopes what comes before the quote.)
  const sentence = fromQuote
    .split(/[。.!！?？\n]/u)
    .map((x) => x.trim())
    .find((x) => x.length > 0);
  if (sentence === undefined) return undefined;
  // (Split here, not through the cache of the sentence's parts: this text is not the sentence.)
  const parts = split(sentence);
  if (!(parts.slice(1).some((part) => ONE_TIME_TAIL.test(part)) || parts.some((part) => ONE_TIME_END.test(part)))) return undefined;
  return problem('temporary', 'a clause of one time closes the sentence of the act');
}

const HABITS = anyOf(L.LATE_HABITS);
const FAILURES = anyOf(L.LATE_FAILURES);
const WISH = anyOf(L.LATE_WISH_WORDS);

/** "这个定时任务每次都在凌晨卡死", "The nightly build always crashes on arm64.": software failing, not a wish. */
function failingHabit(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !HABITS.test(said) || !FAILURES.test(said) || WISH.test(said)) return undefined;
  return problem('description', 'a habit of software failing is what happens, not what should');
}

// "By default Gradle caches …": a third-person subject (a name, or a noun after "the") and a present verb.
const DEFAULT_BEHAVIOUR = new RegExp(
  [
    String.raw`^(?:by default|out of the box)[,，]?\s+`,
    String.raw`(?!(?:I|We|You|Our|Let's|Please|Every|All|Each|Any|New|Always|Never)\b)`,
    // (A proper name may follow "the": "the Ansible connection".)
    String.raw`(?:(?:the|its)\s+[A-Za-z][\w.-]*|[A-Z][\w.-]*)(?:\s+[\w.-]+){0,2}?\s+`,
    String.raw`(?:only\s+|just\s+|also\s+|never\s+|always\s+)?(?:[a-z]+[^s\W]s|is|has|does|doesn't|won't)\b`,
  ].join(''),
  'u',
);
function defaultBehaviour(found: GateProblem | null, sentence: string): Reading {
  if (!accepted(found) || !DEFAULT_BEHAVIOUR.test(sentence.trim().replace(/^by default/iu, 'by default'))) return undefined;
  if (WISH.test(fold(sentence))) return undefined;
  return problem('description', 'what a piece of software does by default, not a wish');
}

const RE = L.LATE_RESIGNED_EDGES;
// A clause of resignation, whole, with a time adverb or a softener at its edges ("早就认了", "used to it by now").
const RESIGNED = new RegExp(
  String.raw`^(?:(?:${[...RE.before.zh, ...RE.before.en].map(escape).join('|')})\s*)?` +
    `(?:${[...L.LATE_RESIGNED.zh, ...L.LATE_RESIGNED.en].map(escape).join('|')})` +
    String.raw`(?:\s*(?:${[...RE.after.zh, ...RE.after.en].map(escape).join('|')}))?$`,
  'u',
);
const AHEAD = anyOf(L.LATE_AHEAD);
/** "反正每次发版都要等半天，习惯了。": a habit the user resigns to is described, not wished for. */
function resignedTail(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || AHEAD.test(said)) return undefined;
  const parts = partsOf(said);
  const resigned = parts.length >= 2 && RESIGNED.test(parts.at(-1)!);
  const anyway = /^反正/u.test(said) && HABITS.test(said);
  if (!resigned && !anyway) return undefined;
  return problem('description', 'a habit the user resigns to, not a wish');
}

const EXASPERATED = new RegExp(L.LATE_EXASPERATION.join('|'), 'u');
const ASSISTANT_HABIT = /每次[^，,。]{0,24}?你(?:都|就|总|老)|\byou (?:always|keep|never)\b/u;
/** "每次问 X 你都给我一大段 😩": a complaint about what the assistant did, with no wish for the future. */
function assistantHabitComplaint(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !ASSISTANT_HABIT.test(said) || !EXASPERATED.test(said) || AHEAD.test(said)) return undefined;
  return problem('description', 'a complaint about what the assistant keeps doing, not a wish');
}

const DOUBTS = anyOf(L.LATE_DOUBTS);
/** "By default I go with what the wizard gives me, no idea if that's right.": the user doubts what they said. */
function doubtTail(found: GateProblem | null, said: string): Reading {
  if (!accepted(found)) return undefined;
  const parts = partsOf(said);
  if (!parts.slice(1).some((part) => DOUBTS.test(part))) return undefined;
  return problem('undecided', 'the user says they do not know whether it is right', 'suggest');
}

const NOBODY = new RegExp(
  `(?:${L.LATE_NOBODY.zh.join('|')})(?:${L.LATE_PICKING.zh.join('|')})` +
    String.raw`|\b(?:${L.LATE_NOBODY.en.join('|')})(?:'s|\s+has|\s+have)?\s+(?:yet\s+|really\s+)?(?:${L.LATE_PICKING.en.join('|')})\b`,
  'u',
);
/** "…is still open, nobody's picked one.", "还没人拍板": a negative subject of deciding — nothing is decided. */
function nobodyDecided(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !NOBODY.test(said)) return undefined;
  return problem('undecided', 'nobody has decided it');
}

// "以候再看吧": a typo'd 以后 (read as the marker) right before 再 and a verb of handling means "later", not "from now on".
const LATER_MARKER = /(?:以[後侯候厚]|已[后後侯候厚])再(?:看|说|议|弄|处理|讨论|定|搞|聊)/u;
function laterMarker(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !LATER_MARKER.test(said)) return undefined;
  return problem('undecided', 'the marker means "later": the matter is put off');
}

const DISAVOWAL = anyOf(L.LATE_DISAVOWALS);
const THIS_PROJECT = anyOf(L.LATE_THIS_PROJECT);
/** "X 那边要求…，跟我们没关系。", "…. Not our concern.": a rule said not to concern us. */
function disavowed(found: GateProblem | null, whole: string): Reading {
  if (!(accepted(found) || found?.reason === 'third_party')) return undefined;
  const m = DISAVOWAL.exec(whole);
  // ("那个跟这里没关系，这里别用": a clause of its own for this project after it is what the user asks.)
  if (!m || THIS_PROJECT.test(whole.slice(m.index + m[0].length))) return undefined;
  return problem('other_project', 'the user says the rule does not concern this project');
}

const FORWARD_LEAD = new RegExp(
  `(?:${L.LATE_FORWARDING.zh.map(escape).join('|')}` +
    // (An English lead opens its line: spaces, not line breaks, before it — a run of blank lines stays linear.)
    `|(?:^|\\n)[^\\S\\n]*(?:${L.LATE_FORWARDING.en.map(escape).join('|')})\\b)[^:：\\n]{0,24}[:：]`,
  'u',
);
const AUTHORED = anyOf(L.LATE_AUTHORED);
const TAKING_ON = new RegExp(`${anyOf(L.LATE_TAKING_ON).source}|${anyOf(L.LATE_FIRMNESS).source}|同意|\\bagreed?\\b`, 'u');
/**
 * "转一下群公告：【决定】…", "Forwarding from the infra channel: …": a lead that forwards or pastes what follows
 * makes it someone else's words; a line of the user's own after it that takes it on holds it for the user.
 */
function forwarded(found: GateProblem | null, text: string, begin: number, end: number): Reading {
  if (!(accepted(found) || ['no_speech_act', 'code_or_tool_output'].includes(found?.reason ?? ''))) return undefined;
  const folded = fold(text);
  const lead = FORWARD_LEAD.exec(folded);
  if (!lead) return undefined;
  // (The quote's offsets in the folded text: folding may change lengths.)
  const [qb, qe] = [fold(text.slice(0, begin)).length, fold(text.slice(0, end)).length];
  // What is forwarded: the rest of the lead's line, or the first line after it when the colon ends the line.
  let from = lead.index + lead[0].length;
  while (from < folded.length && /[^\S\n]/u.test(folded[from]!)) from += 1;
  if (folded[from] === '\n') from += 1;
  const lineEnd = folded.indexOf('\n', from);
  const to = lineEnd < 0 ? folded.length : lineEnd;
  // The quote must reach into the forwarded words, not only a line of the user's own after them.
  if (!(qb < to && qe > from) || to - from < 4) return undefined;
  // (A line of the user's own after the forwarded one that takes it on: "这个我同意，这个 repo 就这么执行".)
  const own = folded
    .slice(to)
    .split('\n')
    .filter((line) => line.trim().length > 0);
  // ("这两条是我定的，以后照这个来": the user says the forwarded rules are the user's own: the first reading stands.)
  if (own.some((line) => AUTHORED.test(line))) return undefined;
  if (own.some((line) => TAKING_ON.test(line) || P.adoptions.has(new Span(line))))
    return problem('paste_nearby', 'the user takes on forwarded words as a rule of this project', 'suggest');
  return problem('code_or_tool_output', 'the words are forwarded or pasted from elsewhere');
}

const MISADDRESSED = anyOf(L.LATE_MISADDRESSED);
const IGNORE = wholePart(L.LATE_IGNORE);
/** "…——啊这句是发给同事的，ignore。", "wrong chat, sorry": the words were not meant for the assistant. */
function misaddressed(found: GateProblem | null, fromQuote: string): Reading {
  if (!accepted(found) && found?.verdict !== 'suggest') return undefined;
  const parts = partsOf(fromQuote);
  const slip = parts.slice(1).some((part) => MISADDRESSED.test(part)) || (parts.length >= 2 && IGNORE.test(parts.at(-1)!));
  if (!slip) return undefined;
  // ("…— sorry wrong window, I meant the Gleam files": a slip of address that then restates what was meant corrects
  // it: what stands is for the user to say.)
  if (RESTATING_ANYWHERE.test(fromQuote)) return problem('correction', 'a slip of address, then what was meant', 'suggest');
  return problem('retracted', 'the user says the words were not meant for the assistant');
}

const STANDING_SCOPE = anyOf(L.REREAD_STANDING_SCOPES);
const REPEAT_EN = L.LATE_REPEAT_STEPS.en.map(escape).join('|');
const REPEAT_ZH = L.LATE_REPEAT_STEPS.zh.map(escape).join('|');
const CHAIN = new RegExp(
  String.raw`\b(?:and|then)\s+(?:${REPEAT_EN})\s+(?:it|them|this|that)\b|\b(?:${REPEAT_EN})\s+(?:it|them)\s+(?:once|again)\b` +
    `|(?:然后|再|之后)(?:${REPEAT_ZH})|(?:${REPEAT_ZH})一(?:次|遍|下)`,
  'u',
);
/** "Rename the table and redeploy it.", "改完这个参数，然后重跑一次": steps on one thing, done once — a task now. */
function oneOffChain(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || STANDING_SCOPE.test(said) || !CHAIN.test(said)) return undefined;
  return problem('one_off_request', 'a chain of steps done over on one thing: a task for now', 'refuse');
}

const CONCEDING = /^(?:行|好|好啊|好吧|行吧|可以|成)[，,!！\s]+那(?:就)?/u;
const IRONIC_END = /多(?:\p{Script=Han}){2}(?:啊|呀|呢|哈)?$/u;
/** "行，那就让每个服务自己管日志吧，排查起来多有趣。": a concession, then an ironic exclamation — sarcasm. */
function ironicExclamation(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !CONCEDING.test(said)) return undefined;
  const parts = partsOf(said);
  if (parts.length < 2 || !IRONIC_END.test(parts.at(-1)!)) return undefined;
  return problem('sarcasm', 'a concession closed by an ironic exclamation');
}

const FIRMNESS = anyOf(L.LATE_FIRMNESS);
const TAKES_ON = anyOf(L.LATE_TAKING_ON);
const ADOPTING = anyOf(L.LATE_ADOPTING);
const OFFICIAL = /官方|\bofficial\b/u;
const NEGATED_BEFORE = /\bnot\b|n't\b|\bno\b|不|非|没/u;
/**
 * "The official guide says X — we follow that here, full stop.", "…，我们项目就照这个执行。": the user takes a party's
 * rule on and makes it binding for this project: the user's own ruling.
 */
function firmAdoption(found: GateProblem | null, whole: string): Reading {
  if (found === null || !['third_party', 'weak_evidence'].includes(found.reason) || found.verdict !== 'suggest') return undefined;
  const parts = partsOf(whole);
  const later = parts.slice(1).join(' ');
  // (Held on weak evidence, the rule must still be a party's: "ROS 2's official guide puts …; that's binding for us".)
  // ("ChatGPT suggested X. …": a subject other than the user or the assistant before a verb of advising is a party.)
  if (
    found.reason === 'weak_evidence' &&
    !(P.thirdParties.has(new Span(parts[0] ?? '')) || OFFICIAL.test(parts[0] ?? '') || advisedBy(parts[0] ?? ''))
  )
    return undefined;
  const firm = FIRMNESS.exec(later);
  // ("…, but it's not a requirement": a firmness word under a negation makes nothing binding.)
  if (firm && NEGATED_BEFORE.test(later.slice(Math.max(0, firm.index - 12), firm.index))) return undefined;
  // ("tried it, liked it, adopting that for this repo": a verb of adopting scoped to this project binds it as well;
  // "agreed, we do the same here" takes on no more than a recommendation — held.)
  const adopting = ADOPTING.test(later);
  if (!firm && !(adopting && THIS_PROJECT.test(later))) return undefined;
  if (!(adopting || TAKES_ON.test(later) || P.adoptions.has(new Span(later)))) return undefined;
  if (/[?？]/u.test(whole) || P.speculation.has(new Span(later)) || P.undecided.has(new Span(later))) return undefined;
  return null;
}

/** "chatgpt suggested running …": a verb of advising after a subject that is not the user, we or the assistant. */
function advisedBy(part: string): boolean {
  const m = ADVISING.exec(part);
  if (!m) return false;
  const subject = part.slice(0, m.index);
  return /\p{L}/u.test(subject) && !/我|你|咱|(?<![\p{L}])(?:i|we|you|let's)(?![\p{L}])/u.test(subject);
}
const ADVISING = new RegExp(`(?:${L.ADVISING_VERBS.zh.join('|')})|\\b(?:${L.ADVISING_VERBS.en.join('|')})\\b`, 'u');
const OPENS_AHEAD = /^(?:(?:所以|那|那就|我们|咱们)\s*)?(?:以后|今后|往后|from now on|going forward)/u;
/**
 * "官方推荐开 -Wall，以后示例都带上 -Wall，这个仓库也一样。": a clause of the user's own opened by a standing marker
 * after a party's advice is over, said to hold for this project too.
 */
function ownRuleAfterAdvice(found: GateProblem | null, said: string): Reading {
  if (found?.reason !== 'third_party') return undefined;
  const parts = partsOf(said);
  const at = parts.findIndex((part, i) => i > 0 && OPENS_AHEAD.test(part));
  if (at < 0) return undefined;
  // The party's clause has its verb of advising and what it advises: it is over before the user's own.
  const advised = parts.slice(0, at).some((part) => {
    const m = ADVISING.exec(part);
    return m !== null && Array.from(part.slice(m.index + m[0].length).replace(/[\s\p{P}]/gu, '')).length >= 2;
  });
  if (!advised || /[?？]/u.test(said) || P.speculation.has(new Span(parts.slice(at).join(' ')))) return undefined;
  // The user also says it holds for this project ("这个 repo 也一样"): a relayed rule would not.
  const own = parts.slice(at).join(' ');
  if (!(THIS_PROJECT.test(own) && (TAKES_ON.test(own) || P.adoptions.has(new Span(own))))) return undefined;
  return null;
}

const CARRY_OVER = anyOf(L.LATE_CARRY_OVER);
const CARRY_TO = anyOf(L.LATE_CARRY_TO);
// A negation or a prohibitive before the verb of carrying over ("别照搬", "don't carry over").
const NOT_CARRIED = /不|非|没|别|莫|\bnot\b|n't\b|\bno\b|\bnever\b/u;
const SETTLING = anyOf(L.LATE_SETTLING);
const ACT_HERE = /别|不要|不许|禁止|就用|改用|统一用|一律|\b(?:don't|never|do not|stick with)\b/u;
/**
 * "我另一个项目用 X，那个跟这里没关系，这里别用。": after another project, a clause of this project's own is its act.
 * "…, 这边也沿用 X，定了。" carries the other project's way over and settles it; "Same here, probably?" is held.
 */
function thisProjectAfterOther(found: GateProblem | null, quote: string, said: string, rejudge: Rejudge): Reading {
  const reasons = ['other_project', 'description', 'confirmation_without_proposal', 'quoted_speech', 'no_speech_act'];
  if (found === null || !(reasons.includes(found.reason) || found.reason === 'weak_evidence')) return undefined;
  const parts = partsOf(quote);
  if (found.reason !== 'quoted_speech') {
    const own = ownClauseAfterOther(quote, said, rejudge);
    if (own !== undefined) return own;
  }
  if (found.reason === 'weak_evidence') return undefined;
  // ('之前那个 X 项目里"…"的规矩，这个项目照搬': the words quoted, or a rule with no act of its own, are another
  // project's way, named before.)
  const named = ['quoted_speech', 'no_speech_act'].includes(found.reason);
  if (named && !P.otherProjects.has(new Span(parts[0] ?? ''))) return undefined;
  // "老项目那套规范直接 carry over 到这个 repo：…", "…. applies here too": a verb of carrying over with this project
  // in its clause is the act itself (not under a negation: "这个项目别照搬").
  const carried = parts.find((part) => {
    const m = CARRY_TO.exec(part);
    // ("上个项目的 eslint 配置直接拿过来用": 过来, toward here, names this project as where it is carried.)
    const here = THIS_PROJECT.test(part) || /过来/u.test(m?.[0] ?? '');
    return m !== null && here && !NOT_CARRIED.test(part.slice(Math.max(0, m.index - 6), m.index));
  });
  if (carried !== undefined) {
    if (/[?？]/u.test(quote) || P.speculation.has(new Span(quote)) || P.undecided.has(new Span(quote)))
      return problem('other_project', 'another project’s way carried over, hedged: for the user to confirm', 'suggest');
    return null;
  }
  if (named) return undefined;
  const later = parts.slice(1);
  if (later.some((part) => CARRY_OVER.test(part))) {
    if (/[?？]/u.test(quote) || P.speculation.has(new Span(later.join(' '))))
      return problem('other_project', 'another project’s way carried over, hedged: for the user to confirm', 'suggest');
    if (later.some((part) => SETTLING.test(part))) return null;
    return undefined;
  }
  if (found.reason !== 'other_project') return undefined;
  const own = later.findIndex((part) => THIS_PROJECT.test(part) && ACT_HERE.test(part.replace(THIS_PROJECT, ' ')));
  if (own < 0 || /[?？]/u.test(quote)) return undefined;
  // "…, but don't carry that over here", "这边别照搬": the prohibition is on the carrying, not a rule of this project's
  // own; only a choice after it ("…，这个项目别照搬，统一两个空格") is one.
  if (DECLINED_CARRY.test(later[own]!)) {
    const chosen = later.slice(own + 1).some((part) => rejudge(hereAsProject(part)) === null);
    return chosen ? null : problem('other_project', 'the user declines to carry another project’s way over and chooses nothing here');
  }
  return null;
}

const DC = L.LATE_DECLINED_CARRY;
/** Alternatives of a regular expression, the longest first ("按照" before "按"). */
const alternatives = (entries: readonly string[]): string =>
  [...entries]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
// A negation or prohibitive, then within a word or two a verb of carrying over ("别照搬", "don't carry that over").
const DECLINED_CARRY = new RegExp(
  `(?:${alternatives(DC.negations.zh)})(?:再|也|都)?(?:${alternatives(DC.verbs.zh)})` +
    String.raw`|(?<![\p{L}])(?:${alternatives(DC.negations.en)})\s+(?:[\w']+\s+)?(?:${alternatives(DC.verbs.en)})(?![\p{L}])`,
  'u',
);
// "这里只用 squash merge": set against another project, a place word opening the clause names this project, not a
// place in the code.
const LEADING_PLACE = /^(?:这里|这边)(?=\s*[\p{L}\p{N}])/u;
/** A clause of this project judged alone: its leading place word read as this project. */
function hereAsProject(part: string): string {
  return part.replace(LEADING_PLACE, '这个项目');
}

const HERE = anyOf(L.LATE_HERE_DEIXIS);
// ("here's the diff", "here is why": a presentative, not a place.)
const PRESENTATIVE = /\bhere(?:'s|\s+is|\s+are|\s+goes)\b/gu;
const CARRY_HERE = anyOf(L.LATE_CARRY_HERE);
// "…, here too.", "… in this one as well": an English back-pointer closing the clause carries the way over.
const CARRY_CLOSING = /(?<![\p{L}])(?:too|as well)$/u;
const BACK_POINTER = anyOf(L.LATE_BACK_POINTERS, 'gu');
// A negation anywhere in the clause ("这里不一样", "not the same here", "跟这里无关"): no way is carried over.
const NEGATED_CLAUSE = /不|没|别|莫|无|未|(?<![\p{L}])(?:not|no|never|none)(?![\p{L}])|n't\b/u;
const DECIDING = /决定|定了|定下|拍板|(?<![\p{L}])(?:decided|decide|settled|we'll|we will|going with)(?![\p{L}])/u;
const UNRELATED = /无关|没关系|不相关|不一样|两码事|另说|(?<![\p{L}])(?:separate|unrelated|different|independent)(?![\p{L}])/u;
// "In the billing service we …", "在支付服务里…": a place of its own named before a clause of this project's is
// another project by the contrast.
const PLACE_NOUNS = L.LATE_OTHER_PLACE_NOUNS;
const OTHER_PLACE = new RegExp(
  String.raw`(?<![\p{L}])(?:in|at|for|on)\s+(?:the|our|my|that)\s+(?:[\w.-]+\s+){0,2}(?:${PLACE_NOUNS.en.join('|')})(?![\p{L}])` +
    `|(?:在|那个|之前的)[\\p{Script=Han}\\w ]{1,8}?(?:${PLACE_NOUNS.zh.join('|')})(?:里|中|那边)`,
  'u',
);
// A way is done by someone or is a practice ("we squashed", "I always had you", "都用", "习惯让你"); a state
// ("the build was slow", "CI 很慢") is no way to carry over.
const PRACTICE = anyOf(L.LATE_PRACTICE);
const STATE =
  /很|太|挺|特别|非常|(?<![\p{L}])(?:was|were|is|are|got|felt|seemed)\s+(?:so\s+|really\s+|very\s+|too\s+|pretty\s+|kind of\s+)?[a-z]+$/u;
// ("老项目的那套 commit 规范，这边继续用": a norm named as a thing is a way too.)
function carriesAWay(clauses: readonly string[]): boolean {
  return clauses.some((c) => PRACTICE.test(c) || NORM.test(c)) && !clauses.some((c) => STATE.test(c));
}
/**
 * M-5.6: "我上个项目用 X，这个项目也用 X。", "At my last job we …; let's do that here too.", "以前的项目都用 A，这个项目换成 B。":
 * after another project, a later clause whose subject or place is this project (这里, 这个项目, this repo, in this
 * one) is this project's act — a carrying over of the other way (也一样, 照这个来, same, keep doing that) or a choice
 * of its own, judged alone as any statement of this project. What the other project did is never the act: a
 * clause that only mentions this project ("跟这里无关", "this one is separate") or negates the carrying leaves the
 * verdict as it was.
 */
function ownClauseAfterOther(quote: string, said: string, rejudge: Rejudge): Reading {
  let parts = partsOf(quote);
  let other = parts.findIndex((part) => P.otherProjects.has(new Span(part)) || OTHER_PLACE.test(part));
  // ("以前的项目都用 A，这个项目换成 B" quoting only "这个项目换成 B": the other project is in the quote's sentence.)
  const sentenceOnly = other < 0;
  if (sentenceOnly) {
    parts = partsOf(said);
    other = parts.findIndex((part) => P.otherProjects.has(new Span(part)) || OTHER_PLACE.test(part));
  }
  if (other < 0) return undefined;
  const at = parts.findIndex(
    (part, i) => i > other && HERE.test(part.replace(PRESENTATIVE, ' ')) && !P.otherProjects.has(new Span(part)) && !OTHER_PLACE.test(part),
  );
  if (at < 0) return undefined;
  // Quoted, this project's clause is the act: with the other project outside the quote, the clause must be in it.
  const ownParts = sentenceOnly ? parts.slice(at).filter((part) => quote.includes(part)) : parts.slice(at);
  if (ownParts[0] !== parts[at]) return undefined;
  const own = ownParts.join('，');
  // (The parts drop their closing marks: a question is read on the text from the clause on.)
  const from = sentenceOnly ? said : quote;
  const asked = /[?？]|吗|(?<![\p{L}])or not(?![\p{L}])/u.test(from.slice(from.indexOf(parts[at]!)));
  if (UNRELATED.test(own) || DISAVOWAL.test(own)) return undefined;
  // The way carried over is what the other clause says: it must say something beyond naming its project.
  const carried = parts
    .slice(other, at)
    .join(' ')
    .replace(/[\s\p{P}\p{S}]/gu, '');
  if (!NEGATED_CLAUSE.test(own) && (CARRY_HERE.test(own) || ownParts.some((part) => CARRY_CLOSING.test(part)))) {
    // The way carried over is the act's content: it must be quoted with the carrying.
    if (sentenceOnly) return undefined;
    if (Array.from(carried).length < 8 || !carriesAWay(parts.slice(other, at))) return undefined;
    const span = new Span(own);
    if (asked || P.speculation.has(span) || P.undecided.has(span) || P.hypothetical.has(span))
      return problem('other_project', 'another project’s way carried over, hedged: for the user to confirm', 'suggest');
    // (Carried over for now — "暂时也一样", "for now" — is a provisional choice: held, as it is said alone.)
    if (P.temporary.has(span))
      return PROVISIONAL.test(own)
        ? problem('temporary', 'another project’s way carried over for now: for the user to confirm', 'suggest')
        : problem('temporary', 'another project’s way carried over for this time only');
    return null;
  }
  // A choice of its own: the clause judged alone, its back-pointer ("也", "too") dropped — a choice the clause
  // makes must stand without the other project. A negated clause is a choice only with a verb of deciding
  // ("这个项目决定不用了"); "那套在这边用不上" says the way does not fit ("这里别用" is read below).
  if (NEGATED_CLAUSE.test(own) && !DECIDING.test(own)) return undefined;
  const alone = hereAsProject(
    own
      .replace(BACK_POINTER, ' ')
      .replace(/\s{2,}/gu, ' ')
      .trim(),
  );
  const verdict = rejudge(alone);
  if (verdict === null || verdict.verdict === 'suggest') return verdict;
  // (Refused alone for how it is said — asked, hedged, for now — it is refused as this project's statement.)
  return ['question', 'undecided', 'temporary'].includes(verdict.reason) ? verdict : undefined;
}

const CF = L.LATE_COMPARISON_FRAMES;
// "跟上个项目一样", "这边也按老项目那样", "不像上个项目": a part that is only a comparison, what it compares with caught.
const ZH_FRAME = new RegExp(
  `^(?:(?:${alternatives(CF.leads.zh)})\\s*)*(?:(?:${alternatives(CF.openings.zh)})\\s*(.{1,24}?)\\s*(?:${alternatives(CF.closings)})` +
    `|(?:${alternatives(CF.foils.zh)})\\s*(.{1,24}))$`,
  'u',
);
// "same as in the billing service", "like we did in the mobile app", "unlike the old repo".
const EN_FRAME = new RegExp(
  `^(?:(?:${alternatives(CF.leads.en)})\\s+)*(?:${alternatives([...CF.openings.en, ...CF.foils.en])})(?![\\p{L}])\\s*(.{2,60})$`,
  'u',
);
const PLACE_NOUN = anyOf(L.LATE_OTHER_PLACE_NOUNS);
/** What a comparison part compares this project with, when that is another project; else null. */
function comparedWith(part: string): string | null {
  const m = ZH_FRAME.exec(part) ?? EN_FRAME.exec(part);
  const other = m?.[1] ?? m?.[2];
  if (other === undefined) return null;
  const span = new Span(other);
  if (P.otherProjects.has(span) || OTHER_PLACE.test(part)) return other;
  // ("like in this repo": this project is no model of its own.)
  return PLACE_NOUN.test(other) && !HERE.test(other) ? other : null;
}
// A way stated in the past ("we had", "were", "踩过", "用了") is what happened there, not a way for here.
// A place or a copula as the predicate ("代码都在 src 下面", "the client is generated"): how things are, not a way.
const WHERE_THINGS_ARE = /(?:都|全|也|还|一直)(?:在|是)(?!否)|(?<![\p{L}])(?:is|are|lives|live|sits|sit)(?![\p{L}])/u;
const PAST = /(?<![\p{L}])(?:had|was|were|did|used to)(?![\p{L}])|(?<![\p{L}])(?:we|they|i|you)\s+(?:\w+\s+)?[a-z]+ed(?![\p{L}])|了|过/u;
/**
 * M-5.6: "Same as in the billing service: squash merges only.", "跟 payments 服务一样，这里 lint 不过就不许 merge。",
 * "这边也按上个项目那样，commit 用英文写。", "Unlike the old repo, …": a part comparing this project with another one
 * (its model or its foil) before or after the rest of the sentence sets that project against this one; the rest is
 * this project's clause, judged alone, and a way it states (a rule with no scope of its own, or a practice in the
 * present) is carried over by the comparison. What the rest refuses stays refused ("跟上个项目一样，CI 很慢").
 */
function comparedProject(found: GateProblem | null, quote: string, rejudge: Rejudge): Reading {
  const reasons = ['other_project', 'weak_evidence', 'no_speech_act', 'one_off_request', 'third_party'];
  if (found === null || !reasons.includes(found.reason)) return undefined;
  const parts = partsOf(quote);
  if (parts.length < 2) return undefined;
  const at = [0, parts.length - 1].find((i) => comparedWith(parts[i]!) !== null);
  if (at === undefined) return undefined;
  const rest = parts.filter((_, i) => i !== at);
  const restText = rest.join(' ');
  // (The rest naming another project or disowning the matter is not this project's clause; a party is the model only
  // inside the comparison: "跟隔壁组的项目一样，…".)
  if (rest.some((part) => P.otherProjects.has(new Span(part)) || OTHER_PLACE.test(part))) return undefined;
  if (found.reason === 'third_party' && (!P.thirdParties.has(new Span(parts[at]!)) || P.thirdParties.has(new Span(restText))))
    return undefined;
  if (UNRELATED.test(restText) || DISAVOWAL.test(restText)) return undefined;
  const alone = rest
    .map((part) =>
      hereAsProject(
        part
          .replace(BACK_POINTER, ' ')
          .replace(/\s{2,}/gu, ' ')
          .trim(),
      ),
    )
    .join('，');
  const verdict = rejudge(alone);
  const stated =
    verdict?.reason === 'no_speech_act' &&
    carriesAWay(rest) &&
    ![NEGATED_CLAUSE, PAST, WHERE_THINGS_ARE].some((shape) => shape.test(restText));
  if (verdict === null || verdict.reason === 'weak_evidence' || stated) {
    // (Asked or hedged, the comparison decides nothing: the first reading stands.)
    const span = new Span(restText);
    if (/[?？]|吗/u.test(quote) || P.speculation.has(span) || P.undecided.has(span) || P.hypothetical.has(span)) return undefined;
    return null;
  }
  // ("Same as in the billing service, the build is slow": the comparison read as a rule is no rule; the rest decides.)
  return found.reason === 'weak_evidence' && verdict.verdict === 'refuse' ? verdict : undefined;
}

const NC = L.LATE_NORM_CONFORMITY;
// "…按官方 style guide 来", "照官方文档的写法来", "以 gofmt 的输出为准": the verb, its object, the light verb closing the part.
const ZH_CONFORMING = new RegExp(
  `(?:${alternatives(NC.verbs.zh)})\\s*([^，,。]{1,30}?)\\s*(?:${alternatives(NC.closings)})[\\p{Script=Han}]{0,6}$`,
  'u',
);
const EN_CONFORMING = new RegExp(
  `(?<![\\p{L}])(?:${alternatives(NC.verbs.en)})\\s+((?:[\\w.'-]+\\s+){0,6}?(?:${alternatives(NC.norms.en)}))(?![\\p{L}])`,
  'u',
);
const NORM = anyOf(NC.norms);
// ("照这篇文档的写法来", "follow this guide"): one document in particular, a task for now.
const ONE_DOCUMENT = /这个|这份|这篇|这页|这段|那篇|那份|上面|下面|(?<![\p{L}])(?:this|that|these|those|the above)(?![\p{L}])/u;
const NOT_NOW = /一下|这次|这回|(?<![\p{L}])(?:this time|for now|right now|once)(?![\p{L}])/u;
/**
 * M-5.6: "照官方文档的写法来。", "import 顺序按官方 style guide 来。", "Follow the official style guide for imports.": a
 * clause conforming to a norm (a guide, a convention, a standard or a way of writing as the object of 按/照/follow)
 * ranges over every case the norm covers: a standing rule, though no marker names it. One document in particular
 * ("照这篇文档来"), a task for now, a subject of someone else's, a question, a hedge or a negation leave it as read.
 */
function conformsToNorm(found: GateProblem | null, quote: string): Reading {
  if (found === null || !['weak_evidence', 'no_speech_act'].includes(found.reason)) return undefined;
  // (Done once or failing — "按官方文档的写法来的，还是报错" — it is what happened, not a rule.)
  if ([/[?？]|吗|的$/u, NOT_NOW, NEGATED_CLAUSE, PAST, FAILURES].some((shape) => shape.test(quote))) return undefined;
  const span = new Span(quote);
  if (P.speculation.has(span) || P.undecided.has(span) || P.hypothetical.has(span) || P.otherProjects.has(span)) return undefined;
  const conforming = partsOf(quote).some((part) => {
    const m = ZH_CONFORMING.exec(part) ?? EN_CONFORMING.exec(part);
    if (!m || !NORM.test(m[1]!) || ONE_DOCUMENT.test(m[1]!)) return false;
    // (Who conforms: the user, we, or nobody named — "他们都按 PEP 8 写" is someone else's way.)
    const before = part.slice(0, m.index);
    return !/[他她]们?|(?<![\p{L}])(?:they|he|she)(?![\p{L}])/u.test(before) && !P.thirdParties.has(new Span(before));
  });
  return conforming ? null : undefined;
}

const RT = L.LATE_REPORT_TAKEN_UP;
const TAKEN_UP = new RegExp(
  `^(?:(?:${alternatives([...RT.leads.zh, ...RT.leads.en])})(?:[\\s,，]+|(?=\\p{Script=Han})))*` +
    `(?:(?:${alternatives(RT.subjects.zh)})\\s*)?` +
    `(?:(?:${alternatives([...RT.clauses.zh, ...RT.clauses.en])})|[就也]\\s*(\\p{Script=Han}{1,2}))` +
    `(?:\\s+(?:${alternatives(RT.scopes.en)}))*(?:吧|了|啊|呀)?$`,
  'u',
);
const REPORTED = anyOf(L.REPORTING);
const HEDGED_TAKING = /[?？]|吗|吧|(?<![\p{L}])(?:maybe|probably|i guess|i think)(?![\p{L}])/u;
/**
 * "官方说要升级到 v3，那我们就这么做。", "The official migration guide says to drop the CJS build, so that's what we'll
 * do.": a party is reported to say something, then a clause of the user's own takes it up, pointing back at it (or
 * echoing its verb: "…要升级到 v3，那我们就升"): the user's own decision. Hedged ("那就这么做吧？"), it is held.
 */
function reportTakenUp(found: GateProblem | null, quote: string): Reading {
  // (Held on weak evidence, the act read may be the party's verb: "官方推荐用 pnpm，那我们也这么做".)
  if (found === null || !['third_party', 'no_speech_act', 'weak_evidence'].includes(found.reason)) return undefined;
  const parts = partsOf(quote);
  const at = parts.findIndex((part, i) => i > 0 && TAKEN_UP.test(part));
  if (at < 0 || GRUDGING.test(parts.slice(at).join(' '))) return undefined;
  const reported = parts.slice(0, at).join(' ');
  if (!(REPORTED.test(reported) || advisedBy(reported))) return undefined;
  if (found.reason !== 'third_party' && !(OFFICIAL.test(reported) || P.thirdParties.has(new Span(reported)))) return undefined;
  // (An echoed verb must be the reported one: "官方说要升级，那我们就升".)
  const echoed = TAKEN_UP.exec(parts[at]!)?.[1];
  if (echoed !== undefined && !reported.includes(echoed)) return undefined;
  const tail = quote.slice(quote.lastIndexOf(parts[at]!));
  if (HEDGED_TAKING.test(tail) || P.speculation.has(new Span(tail)) || P.undecided.has(new Span(tail)))
    return problem('third_party', 'a party’s word taken up with a hedge: for the user to confirm', 'suggest');
  return null;
}

/**
 * A temporary scope or a retraction in words the quote leaves out: "这个 PR 先临时关掉 X，以后 CI 一律跑 X" (the quote
 * opens with a standing marker of its own), "…统一用 A，还有 B —— 前缀那个算了" (the retraction names a thing the quote
 * does not). The quoted words are then judged alone.
 */
function scopeOutsideQuote(found: GateProblem | null, text: string, begin: number, end: number, after: string, rejudge: Rejudge): Reading {
  if (found === null || !['temporary', 'retracted'].includes(found.reason) || found.verdict !== 'refuse') return undefined;
  if (begin === 0 && end >= text.trimEnd().length) return undefined;
  const quote = fold(text.slice(begin, end));
  if (found.reason === 'temporary') {
    if (!(OPENS_AHEAD.test(quote.trim()) || OTHERWISE.test(quote.trim())) || P.temporary.has(new Span(quote))) return undefined;
  } else {
    const r = P.retractions.find(new Span(after))[0];
    // (In the quote's own sentence: a retraction in a sentence after it takes the whole back.)
    if (!r || sentencesOf(after.slice(0, r.index)).length > 1 || /[。！？!?\n]/u.test(after.slice(0, r.index))) return undefined;
    const clause = after
      .slice(0, r.index)
      .split(/[，,;；。.!！?？—–]|…+/u)
      .at(-1)!;
    const names = (clause.replace(TOPIC_FILLERS, ' ').match(/[a-z][\w.+#-]*|\p{Script=Han}{2,}/gu) ?? []).filter((n) => n.length > 1);
    if (names.length === 0 || names.some((n) => quote.includes(/^\p{Script=Han}/u.test(n) ? n.slice(0, 2) : n))) return undefined;
    if (rejudge(text.slice(begin, end)) !== null) return undefined;
    // A clause keeping a name of the quote ("DIVIDE 保留", "keep the linter") says what stands; without one the
    // retraction of the other thing is conflicting evidence: held for the user.
    const rest = after.slice(r.index + r.text.length);
    const kept = partsOf(rest).some((part) => KEEPING.test(part) && namesOf(quote).some((n) => part.includes(n)));
    return kept ? null : problem('retracted', 'a later clause takes back another thing: what stands is for the user', 'suggest');
  }
  return rejudge(text.slice(begin, end)) === null ? null : undefined;
}
const KEEPING = /保留|留着|不变|照旧|\b(?:keep|keeps|stays|stay|remains)\b/u;
/** The names of a folded text: Latin words and runs of two Chinese characters. */
function namesOf(text: string): string[] {
  return (text.match(/[a-z][\w.+#-]+|\p{Script=Han}{2}/gu) ?? []).filter((n) => !/^(?:以后|统一|一律|都用|所有)$/u.test(n));
}
const TOPIC_FILLERS =
  /\b(?:actually|no|oh|hmm|wait|ok|and|the|that|one|also|lol|haha)\b|那个|这个|那条|这条|的|也|就|还有|吧|嗯|哦|呃|哈+|呵+/gu;
// "rest of the time …", "平时…": the quote set against a scope before it as what holds otherwise.
const OTHERWISE =
  /^(?:(?:but|and)\s+)?(?:rest of the time|the rest of the time|otherwise|other times|any other time)\b|^(?:平时|其他时候|其余时候|别的时候|其它时候)/u;

const ER = L.LATE_EMPTY_RULING;
// (The nouns alone, a cheap test before the patterns around them.)
const RULING_NOUN = new RegExp([...ER.nouns.zh, ...ER.nouns.en].map(escape).join('|'), 'u');
const EMPTY_RULING = new RegExp(
  `(?:${ER.negations.zh.map(escape).join('|')})(?:${ER.nouns.zh.map(escape).join('|')})(?!权|之前|前|的话|就|以前)` +
    String.raw`|(?<![\p{L}])(?:${ER.negations.en.map(escape).join('|')})\s+(?:${ER.nouns.en.map(escape).join('|')})` +
    String.raw`\s+(?:${ER.soFar.map(escape).join('|')})(?![\p{L}])`,
  'u',
);
/**
 * "结论：暂无结论。…", "Decision: no decision yet, …": a ruling noun whose existence is negated — nothing is ruled,
 * unless a later word settles it after all ("…，现在定了：…").
 */
function emptyRuling(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !RULING_NOUN.test(said)) return undefined;
  const m = EMPTY_RULING.exec(said);
  if (!m || SETTLING.test(said.slice(m.index + m[0].length))) return undefined;
  return problem('undecided', 'the ruling is said not to exist yet');
}

const DM = L.LATE_DECISION_MENTION;
const DECISION_NOUN = new RegExp([...DM.nouns.zh, ...DM.nouns.en].map(escape).join('|'), 'u');
const DECISION_MENTION = new RegExp(
  `(?:${DM.determiners.zh.map(escape).join('|')})[^，,。!！?？]{0,24}?(?:${DM.nouns.zh.map(escape).join('|')})` +
    `[^，,。!！?？]{0,3}?(?:${DM.consequences.zh.map(escape).join('|')})` +
    String.raw`|(?<![\p{L}])(?:${DM.determiners.en.map(escape).join('|')})\s+(?:[\w.-]+\s+){0,4}?` +
    // (The noun may take a short complement: "that decision to go with Mongo is why …".)
    String.raw`(?:${DM.nouns.en.map(escape).join('|')})(?:\s+(?:to|of|on|about)\s+(?:[\w.-]+\s+){0,4}?|\s+)` +
    String.raw`(?:(?:again|really|just|totally)\s+)?(?:${DM.consequences.en.map(escape).join('|')})(?![\p{L}])`,
  'u',
);
/** "唉，又是当初那个 X 的决定惹的祸", "that caching decision bit us again": an earlier choice blamed, no choice made. */
function decisionMentioned(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !DECISION_NOUN.test(said) || !DECISION_MENTION.test(said)) return undefined;
  return problem('description', 'an earlier choice named as a thing and blamed: no choice is made');
}

const REGRET = anyOf(L.LATE_REGRET);
const EARLIER_CHOICE = anyOf(L.LATE_EARLIER_CHOICE);
/**
 * "当初选 Kafka 的决定现在看有点后悔", "I kinda regret going with Next.js, maybe we should move back": the user judges
 * an earlier choice; the choice named is what the sentence is about, and no choice is made — unless the parts
 * without the judgement stand as a ruling of their own ("后悔用了 Kafka，决定换回 RabbitMQ").
 */
function choiceRegretted(found: GateProblem | null, said: string, rejudge: Rejudge): Reading {
  if (!accepted(found) || !REGRET.test(said)) return undefined;
  const rest = partsOf(said).filter((part) => !REGRET.test(part));
  // (Parts that recount the choice at the time it was made, "当初把配置中心选成 Apollo", are the choice judged.)
  if (rest.length > 0 && !rest.some((part) => EARLIER_CHOICE.test(part)) && rejudge(rest.join(', ')) === null) return undefined;
  return problem('description', 'the user judges an earlier choice: no choice is made');
}

const BR = L.LATE_BACK_REFERENCE;
const BACK_REFERENCE = new RegExp(
  `(?:${BR.earlier.zh.map(escape).join('|')})[^，,。!！?？]{0,6}?(?:${BR.saying.zh.map(escape).join('|')})` +
    String.raw`|(?<![\p{L}])(?:we|i|you)\s+(?:${BR.saying.en.map(escape).join('|')})(?:\s+(?:on|about))?\s+` +
    String.raw`(?:[\w-]+\s+){0,2}?(?:${BR.earlier.en.map(escape).join('|')})(?![\p{L}])` +
    String.raw`|(?<![\p{L}])(?:${BR.earlier.en.map(escape).join('|')})\s+(?:${BR.saying.en.map(escape).join('|')})(?![\p{L}])`,
  'u',
);
const BACK_REFERENCES = new RegExp(BACK_REFERENCE.source, 'gu');
const EMPTY_WORDS = new RegExp(
  `${BR.empty.zh.map(escape).join('|')}|(?<![\\p{L}])(?:${BR.empty.en.map(escape).join('|')})(?![\\p{L}'])`,
  'gu',
);
const BARE_TAKEN_BACK = new RegExp(`^(?:${[...L.RETRACTIONS.zh, ...L.RETRACTIONS.en].map(escape).join('|')})$`, 'u');
/**
 * "就按之前说的那样来", "just do it the way we agreed last time": a ruling whose words only point back at an earlier
 * statement states nothing to store; "之前说的回答要带表格那个，不用了": one that a bare retraction follows takes that
 * earlier statement back.
 */
function pointsBackOnly(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !BACK_REFERENCE.test(said)) return undefined;
  const parts = partsOf(said);
  if (parts.length > 1 && BACK_REFERENCE.test(parts[0]!) && parts.slice(1).some((part) => BARE_TAKEN_BACK.test(part)))
    return problem('retracted', 'the user takes back an earlier statement: nothing to store');
  const rest = said.replace(BACK_REFERENCES, ' ').replace(EMPTY_WORDS, ' ');
  const substance = (rest.match(/[a-z0-9][\w.+#-]*/gu) ?? []).length + (rest.match(/\p{Script=Han}/gu) ?? []).length / 2;
  return substance < 1
    ? problem('no_speech_act', 'the words only point back at an earlier statement: nothing in them to store')
    : undefined;
}

const TALK_AGAIN = anyOf(L.LATE_TALK_AGAIN);
// "那个决定", "the caching decision": a decision named as a thing by a determiner (not "决定了：…", which makes one).
const NAMED_DECISION = new RegExp(
  `(?:${DM.determiners.zh.map(escape).join('|')})[^，,。!！?？]{0,12}?(?:${DM.nouns.zh.map(escape).join('|')})(?!了)` +
    String.raw`|(?<![\p{L}])(?:${DM.determiners.en.map(escape).join('|')})\s+(?:[\w.-]+\s+){0,3}?` +
    String.raw`(?:${DM.nouns.en.map(escape).join('|')})(?![\p{L}])`,
  'u',
);
/**
 * "we went over the caching decision already, don't make me repeat it", "之前决定的那个事情别再问了": an earlier decision
 * named, and a request not to talk it over again — a complaint about the conversation, no ruling of this project.
 */
function talkedOverAgain(found: GateProblem | null, said: string): Reading {
  if (!accepted(found) || !TALK_AGAIN.test(said) || !(BACK_REFERENCE.test(said) || NAMED_DECISION.test(said))) return undefined;
  return problem('description', 'an earlier decision named and not to be talked over again: no ruling of this project');
}

const FOLLOW_BACK = anyOf(L.LATE_FOLLOW_BACK);
/**
 * "Google 那份 Go style guide 挺好，以后你写 Go 就照它来": after naming a party's document or way, the user's own
 * standing request to the assistant that points back at it is the user's wish, not the party's.
 */
function sourceThenStandingRequest(found: GateProblem | null, said: string, kind: StatementKind): Reading {
  if (kind !== 'user_preference' || found?.reason !== 'third_party' || found.verdict !== 'suggest') return undefined;
  const parts = partsOf(said);
  const at = parts.findIndex((part, i) => i > 0 && OPENS_AHEAD.test(part) && TO_ASSISTANT.test(part) && FOLLOW_BACK.test(part));
  if (at < 0 || /[?？]/u.test(said)) return undefined;
  const own = new Span(parts.slice(at).join(' '));
  if (P.speculation.has(own) || P.undecided.has(own) || P.thirdParties.has(own)) return undefined;
  return null;
}

const USER_SAYING = anyOf(L.LATE_USER_SAYING);
/**
 * "As I said before, and saying it again so it sticks: X.": a verb of saying whose subject is the user, before the
 * quote, is the user restating — not another party's words. The quoted words are judged alone; a rule held only on
 * weak evidence stands, as a restated rule does (M-5.6).
 */
function restatedByUser(found: GateProblem | null, text: string, begin: number, end: number, rejudge: Rejudge): Reading {
  if (found?.reason !== 'third_party' || begin === 0) return undefined;
  const lead = fold(text.slice(0, begin));
  if (!USER_SAYING.test(lead) || P.thirdParties.has(new Span(lead))) return undefined;
  const alone = rejudge(text.slice(begin, end));
  return alone === null || alone.reason === 'weak_evidence' ? null : undefined;
}

const RESTATEMENT_LEAD = new RegExp(
  String.raw`^(?:${[...L.LATE_RESTATEMENT_LEADS.zh, ...L.LATE_RESTATEMENT_LEADS.en].map(escape).join('|')})[了哈啊哦呀嘛吧\s]*$`,
  'u',
);
/**
 * "重申一下：回答里的路径都用绝对路径", "again: no emojis in commit messages": a lead saying the rule after it is said
 * again makes the user's standing act of a rule held only for want of a scope (a restated wish has one: it stands).
 */
function restatedRule(found: GateProblem | null, said: string, rejudge: Rejudge): Reading {
  if (found?.reason !== 'weak_evidence') return undefined;
  const parts = partsOf(said);
  if (parts.length < 2 || !RESTATEMENT_LEAD.test(parts[0]!)) return undefined;
  const alone = rejudge(parts.slice(1).join(', '));
  return alone === null || alone.reason === 'weak_evidence' ? null : undefined;
}

const TAGS = L.LATE_TAGS;
const TAG_END = new RegExp(
  String.raw`[，,]\s*(?:(${[...TAGS.heard.zh, ...TAGS.heard.en].map(escape).join('|')})|` +
    String.raw`(${[...TAGS.consent.zh, ...TAGS.consent.en].map(escape).join('|')}))\s*[?？]+[\s\p{P}\p{S}]*$`,
  'u',
);
/**
 * "别再推荐 X 了，一律用 Y，ok?": a tag checking the statement is taken in leaves it standing; one asking consent
 * ("…，好吗？") makes it a wish asked politely, held. Either way the words before the tag must stand alone.
 */
function tagAfterStatement(text: string, begin: number, end: number, rejudge: Rejudge): Reading {
  const tag = TAG_END.exec(fold(text.slice(begin, end)));
  if (!tag) return undefined;
  // (The comma before the tag, in the raw text: folding may change lengths.)
  const cut = Math.max(text.lastIndexOf(',', end - 1), text.lastIndexOf('，', end - 1));
  if (cut - begin < 4) return undefined;
  const before = text.slice(begin, cut);
  if (/[?？]/u.test(before) || rejudge(before) !== null) return undefined;
  return tag[1] !== undefined ? null : problem('polite_request', 'a statement closed by a tag asking consent', 'suggest');
}

const PROVISIONAL = anyOf(L.LATE_PROVISIONAL);
const ONE_TIME = anyOf(L.LATE_ONE_TIME);
/**
 * "drop the X includes for now and use Y instead", "这周先全部用 Metabase 出报表": a choice of the project made for now
 * is provisional — held for the user, not refused as a task for one answer ("this time" still is).
 */
function provisionalChoice(found: GateProblem | null, said: string, kind: StatementKind): Reading {
  if (kind !== 'project_decision' || found?.reason !== 'temporary' || found.verdict !== 'refuse') return undefined;
  if (!PROVISIONAL.test(said) || ONE_TIME.test(said) || /[?？]/u.test(said)) return undefined;
  return problem('temporary', 'a choice made for now: provisional, for the user to confirm', 'suggest');
}

const PRACTICE_TAIL = wholePart(L.LATE_PRACTICE_TAILS);
const PRACTICE_WORD = /我们|\bwe\b/u;
/** "This repo's services are built statically. That's how we ship them.": a description the user names as our practice. */
function practiceTail(found: GateProblem | null, said: string, kind: StatementKind): Reading {
  if (kind !== 'project_decision' || found === null || !['no_speech_act', 'description', 'weak_evidence'].includes(found.reason))
    return undefined;
  if (!PRACTICE_WORD.test(said)) return undefined;
  const parts = partsOf(said);
  if (parts.length < 2 || !parts.slice(1).some((part) => PRACTICE_TAIL.test(part))) return undefined;
  const own = new Span(said);
  if (/[?？]/u.test(said) || P.speculation.has(own) || P.undecided.has(own) || P.thirdParties.has(own) || P.otherProjects.has(own))
    return undefined;
  return null;
}

const GRUDGING = anyOf(L.LATE_GRUDGING);
/**
 * "the lead wants all IDs in hex, which, fine, I guess we do that", "the official docs use X, guess we should follow
 * that", "甲方说…，那就先这样吧": a party's rule taken on grudgingly or with a hedge — for the user to confirm.
 */
function hedgedAdoption(found: GateProblem | null, said: string): Reading {
  if (found === null || found.verdict !== 'refuse') return undefined;
  if (!['undecided', 'third_party', 'no_speech_act', 'speculation'].includes(found.reason)) return undefined;
  if (!GRUDGING.test(said)) return undefined;
  const parts = partsOf(said);
  if (!parts.slice(1).some((part) => GRUDGING.test(part))) return undefined;
  const first = parts[0] ?? '';
  if (!(OFFICIAL.test(first) || advisedBy(first) || P.thirdParties.has(new Span(first)))) return undefined;
  return problem('third_party', 'a party’s rule taken on with a hedge: for the user to confirm', 'suggest');
}

// '不是"A"，是"B"', 'not "A" but "B"': the user quotes what was said wrong and what is meant.
const QUOTED_CONTRAST = /不是\s*[“"「『][^”"」』]+[”"」』]\s*[，,]?\s*(?:而)?是\s*[“"「『]|\bnot\s+["“][^"”]+["”],?\s+(?:but\s+)?["“]/u;
/**
 * "刚才打错了：不是"以后不用写注释"，是"以后 X 都要写文档"": in a correction the user quotes the words meant; they are
 * the user's own, judged alone.
 */
function selfQuotedCorrection(found: GateProblem | null, text: string, begin: number, end: number, rejudge: Rejudge): Reading {
  if (found?.reason !== 'quoted_speech') return undefined;
  const m = QUOTED_CONTRAST.exec(text);
  // (The quote is the words after the contrast: the ones meant.)
  if (!m || begin < m.index + m[0].length - 1 || !P.corrections.has(new Span(fold(text.slice(0, m.index + 2))))) return undefined;
  return rejudge(text.slice(begin, end)) === null ? null : undefined;
}

const FACT_TAG =
  /[,，]\s*(?:right|correct|yes|no|isn't it|aren't they|don't we|doesn't it|对吧|是吧|对不对|是不是|没错吧|对么)\s*[?？][\s\p{P}]*$/u;
// (What opens a question rather than a statement: an inverted auxiliary, a question word, a zh question frame.)
const QUESTION_OPENERS = [
  ...['should', 'shall', 'can', 'could', 'would', 'will', 'do', 'does', 'did', 'is', 'are', 'am'],
  ...['what', 'which', 'how', 'why', 'when', 'where', 'who'],
  ...['要不要', '能不能', '可不可以', '可以', '是不是', '是否', '会不会', '用不用', '该不该', '怎么', '哪', '什么', '为什么'],
];
const STATEMENT_ORDER_BREAK = new RegExp(`^[\\s\\p{P}]*(?:${QUESTION_OPENERS.join('|')})(?![\\p{L}])`, 'u');
/**
 * "from now on maybe lean on X more? not sure yet": a standing marker in statement order closed by a question mark
 * (no question word, no inverted auxiliary, no 吗/呢) puts a wish up tentatively — held, not refused as a question.
 */
function declarativeStandingQuestion(found: GateProblem | null, said: string): Reading {
  if (found?.reason !== 'question' || found.verdict !== 'refuse' || !/[?？]/u.test(said) || /[吗呢么]/u.test(said)) return undefined;
  const opening = OPENS_AHEAD.exec(said);
  if (!opening || STATEMENT_ORDER_BREAK.test(said.slice(opening.index + opening[0].length))) return undefined;
  const first = partsOf(said)[0] ?? '';
  // ("…, right?", "…，对吧？": a tag asking to confirm a fact stays a question.)
  if (FACT_TAG.test(said) || P.aNotA.has(new Span(first)) || P.thirdParties.has(new Span(said))) return undefined;
  return problem('question', 'a standing wish in statement order closed by a question mark: put up tentatively', 'suggest');
}

/** "/remember 上次定的是哪几个来着？": a remember whose words ask for something recalled holds nothing to store. */
export function asksToRecall(body: string): boolean {
  const said = fold(body).trim();
  if (!/[?？][\s\p{P}]*$/u.test(said) && !/来着[\s\p{P}]*$/u.test(said)) return false;
  return /来着|哪(?:个|些|几|里|儿)|什么|多少|为什么|怎么|是否|\b(?:which|what|when|where|who|why|how|did we|do we|have we)\b/u.test(said);
}

const RESTATING_ANYWHERE = /我是说|我说的是|我的意思是|我刚才是说|\bi meant\b|\bwhat i meant\b/iu;
const RESTATING = /^(?:我是说|我说的是|我的意思是|我刚才是说|(?:sorry, )?i meant|what i meant)$/u;
// A hedge in what a correction restates: the user is not sure of the new value either.
const CORRECTION_HEDGE = /[?？]|说不清|不确定|不好说|\bwhichever\b|\bhmm+\b|\bor\b|或者|还是/u;
// What opens a correction and stands right before it ("no wait,", "sorry, typo,", "不对，").
const CORRECTION_OPENERS = /(?:[\s\p{P}]|\b(?:no|wait|sorry|typo|oops|ugh|i)\b|不对|不是|错了|打错了|说错了|呃|啊|哦|我)+$/u;
/**
 * "…用德语缩写，不对，我是说以后都用英文全称", "…by date. no wait, I meant by dataset version": a correction of an act
 * said earlier in the same turn, whose restated words stand as an act of their own or change only a value of that
 * act, with no hedge of its own, is the user's rule (a hedged one, or one of a turn not in view, stays held).
 */
function cleanCorrection(found: GateProblem | null, text: string, end: number, rejudge: Rejudge): Reading {
  if (found === null || !['correction', 'no_speech_act', 'retracted'].includes(found.reason)) return undefined;
  // (With no act read, or one read as taken back — "…，啊不对，我是说 X" — only a word restating what was meant
  // opens a correction: a cheap test before the matcher.)
  const restatedOnly = found.reason !== 'correction';
  if (restatedOnly && !RESTATING_ANYWHERE.test(text)) return undefined;
  const folded = fold(text.slice(0, end));
  const marks = P.corrections.find(new Span(folded)).filter((h) => !/^(?:更正|纠正)/u.test(h.text));
  const mark = marks.at(-1);
  // (With no act read at all, only a word restating what was meant opens the correction: "I meant …", "我是说…".)
  if (!mark || (restatedOnly && !RESTATING.test(mark.text))) return undefined;
  // (In the quote's own sentence or the one before: "going forward, X. no wait, I meant Y".)
  // (Offsets of the folded text: folding may change lengths, "…" becoming "...".)
  const restated = folded.slice(mark.end);
  // A word naming the slip ("打错了", "by mistake") restates only through a copula after it ("…，是 X").
  if (!RESTATING.test(mark.text) && !/^[\s\p{P}]*(?:应该是|是|it's|it is|should be)/u.test(fold(restated))) return undefined;
  const whole = fold(text).slice(mark.end);
  if (CORRECTION_HEDGE.test(whole) || P.speculation.has(new Span(whole)) || P.undecided.has(new Span(whole))) return undefined;
  if (Array.from(restated.replace(/[\s\p{P}]/gu, '')).length < 2) return undefined;
  // What is corrected stands in this turn before the correction ("I misspoke earlier — …" corrects a turn not in
  // view: held), as an act of its own.
  const before = folded.slice(0, mark.index).replace(CORRECTION_OPENERS, '');
  if (Array.from(before.replace(/[\s\p{P}]/gu, '')).length < 4) return undefined;
  const prior = rejudge(before);
  if (prior !== null && prior.verdict === 'refuse') return undefined;
  return rejudge(restated) === null || prior === null ? null : undefined;
}

// A recurring condition opening the sentence ("只要…", "一有…就", "whenever …").
const RECURRING = /^(?:[^，,。]{0,16}?(?:只要|一有|每当|凡是|一旦)|(?:whenever|any time|every time)\b)/u;
const TO_ASSISTANT = /你|\byou\b/u;
/**
 * "URDF 一有改动你就提醒我跑 check_urdf，…", "…只要用到 cv2.resize，you tell me which flag": a request to the assistant
 * under a recurring condition is a standing rule, not a task for now, and needs no other scope.
 */
function recurringConditionToAssistant(found: GateProblem | null, said: string): Reading {
  if (found === null || !['weak_evidence', 'one_off_request'].includes(found.reason)) return undefined;
  if (!RECURRING.test(said) || !TO_ASSISTANT.test(said) || /[?？]/u.test(said) || hedgedSaid(said)) return undefined;
  return null;
}
function hedgedSaid(said: string): boolean {
  const span = new Span(said);
  return [P.undecided, P.speculation, P.hypothetical, P.temporary].some((words) => words.has(span));
}

// Any weakener's words, a cheap test before the matcher reads word boundaries.
const WEAKENER_WORD = new RegExp(
  [...L.WEAKENERS.zh, ...L.WEAKENERS.en].map((w) => escape(w).replace(/\\\{gap\\\}/gu, '.*?')).join('|'),
  'u',
);
/** "Elm 例子 40 行以内 if possible": a constraint with no verb of its own, weakened by a bare weakener: held. */
function bareWeakener(found: GateProblem | null, said: string): Reading {
  if (found?.reason !== 'no_speech_act' || /[?？]/u.test(said) || !WEAKENER_WORD.test(said)) return undefined;
  const weak = P.weakeners.find(new Span(said));
  if (weak.length === 0 || P.thirdParties.has(new Span(said))) return undefined;
  return problem('weakened', 'a constraint weakened by a bare weakener, with no act of its own');
}

// "Any template shared by two chains moves to prompts/", "If a measure is used in two reports, it lives in the
// shared model": a universal or generic subject and a present verb of placement.
const GENERIC_SUBJECT = /^(?:(?:any|every|each|all)\s+[a-z]|if\s+(?:a|an|any)\s+[a-z][^,]{2,80},\s*(?:it|they)\s)/u;
const PLACEMENT = /\b(?:lives?|goes|go|moves?|belongs?|stays?|sits?|is kept|are kept)\s+(?:in|into|to|under|on)\b/u;
const SECOND_RULE = /\b(?:not|never)\s+(?:in|into|to|under|on)\b|\band\s+(?:gets|get|is|are|has|have)\b/u;
/** A generic subject and a verb of placement, set against an alternative or with a second rule: where things go. */
function placementRule(found: GateProblem | null, said: string, kind: StatementKind): Reading {
  if (kind !== 'project_decision' || found?.reason !== 'no_speech_act') return undefined;
  if (!GENERIC_SUBJECT.test(said) || !PLACEMENT.test(said) || /[?？]/u.test(said) || hedgedSaid(said)) return undefined;
  if (P.thirdParties.has(new Span(said)) || P.otherProjects.has(new Span(said))) return undefined;
  return SECOND_RULE.test(said) ? null : problem('weak_evidence', 'a generic rule of placement with no scope: held for the user');
}

const OPENING_PREFERENCE = /^(?:i prefer|i'd prefer|i like|我更喜欢|我喜欢|我倾向于?)\s*/u;
/** "I prefer 先给命令，后台菜单怎么点放最后": after an opening verb of preferring, a wh-word with no question mark is content. */
function contentAfterPreference(found: GateProblem | null, said: string): Reading {
  if (found?.reason !== 'question' || !OPENING_PREFERENCE.test(said) || /[?？吗呢]/u.test(said)) return undefined;
  if (hedgedSaid(said) || P.thirdParties.has(new Span(said))) return undefined;
  return null;
}

// "Nothing ships unless it has been validated", "no migration merges without a down script": a universal negative
// subject, a verb of going out or in, and its condition — a gate the project keeps ("until Friday" names a time,
// not a condition: not read).
const UNLESS_RULE = new RegExp(
  String.raw`\b(?:nothing|no\s+[a-z][\w-]*)\s+(?:ever\s+)?` +
    String.raw`(?:ships|merges|lands|deploys|goes out|goes in|goes live|gets merged|gets deployed|gets released|is released|is merged)` +
    String.raw`\s+(?:unless|without)\b`,
  'u',
);
function unlessRule(found: GateProblem | null, said: string, kind: StatementKind): Reading {
  if (kind !== 'project_decision' || found?.reason !== 'no_speech_act' || !UNLESS_RULE.test(said)) return undefined;
  if (/[?？]/u.test(said) || hedgedSaid(said) || P.thirdParties.has(new Span(said)) || P.otherProjects.has(new Span(said)))
    return undefined;
  return null;
}
