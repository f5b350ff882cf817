import * as L from './lexicon.js';
import { Phrases } from './words.js';

/** The lexicon compiled once: phrase matchers and the grammar patterns built from the word classes of lexicon.ts. */

// The letters next to each one on a QWERTY keyboard: a slip of the finger lands there ("noe" for "now").
const NEIGHBOURS: Readonly<Record<string, string>> = {
  a: 'qwsz',
  b: 'vghn',
  c: 'xdfv',
  d: 'serfcx',
  e: 'wsdr',
  f: 'drtgvc',
  g: 'ftyhbv',
  h: 'gyujnb',
  i: 'ujko',
  j: 'huikmn',
  k: 'jiolm',
  l: 'kop',
  m: 'njk',
  n: 'bhjm',
  o: 'iklp',
  p: 'ol',
  q: 'wa',
  r: 'edft',
  s: 'awedxz',
  t: 'rfgy',
  u: 'yhji',
  v: 'cfgb',
  w: 'qase',
  x: 'zsdc',
  y: 'tghu',
  z: 'asx',
};

/**
 * The markers and their typo'd forms: one adjacent transposition, a dropped or doubled letter or an added final
 * letter in a word of 4+ letters, or a letter after the first struck on a neighbouring key in a word of 3 letters;
 * in Chinese a character
 * a pinyin input method gives for the same syllable or a look-alike (后 as 後/侯/候/厚, 以 as 已/一, 认 as 任/人).
 */
export function typos(words: L.Words): L.Words {
  const en = new Set<string>();
  // The spoken form of -ing with its g dropped ("goin forward", "movin fwd") is a form of the marker whose other
  // words may be typo'd too.
  const spoken = words.en.filter((e) => /ing\b/u.test(e)).map((e) => e.replace(/ing\b/gu, 'in'));
  for (const entry of [...words.en, ...spoken]) {
    const parts = entry.split(' ');
    parts.forEach((part, i) => {
      if (part.length < 3 || !/^[a-z]+$/u.test(part)) return;
      // (A neighbouring key only in a short word, which has no other typo'd form here: every form is one more
      // alternative of the marker matcher, read on every sentence.)
      if (part.length === 3)
        for (let j = 1; j < part.length; j += 1)
          for (const k of NEIGHBOURS[part[j]!] ?? '')
            en.add([...parts.slice(0, i), part.slice(0, j) + k + part.slice(j + 1), ...parts.slice(i + 1)].join(' '));
      if (part.length < 4) return;
      for (let j = 0; j + 1 < part.length; j += 1) {
        const swapped = part.slice(0, j) + part[j + 1] + part[j] + part.slice(j + 2);
        if (swapped !== part) en.add([...parts.slice(0, i), swapped, ...parts.slice(i + 1)].join(' '));
        const dropped = part.slice(0, j + 1) + part.slice(j + 2);
        en.add([...parts.slice(0, i), dropped, ...parts.slice(i + 1)].join(' '));
      }
      en.add([...parts.slice(0, i), `${part}e`, ...parts.slice(i + 1)].join(' '));
      // A letter typed twice ("fromm", "allways", "deffault").
      for (let j = 0; j < part.length; j += 1) {
        en.add([...parts.slice(0, i), part.slice(0, j + 1) + part.slice(j), ...parts.slice(i + 1)].join(' '));
      }
    });
  }
  const zh = new Set<string>();
  for (const entry of words.zh) {
    for (const [from, to] of [
      ['后', '後'],
      ['后', '侯'],
      ['后', '候'],
      ['后', '厚'],
      ['认', '任'],
      ['认', '人'],
      ['以', '已'],
      ['以', '一'],
    ] as const)
      if (entry.includes(from)) zh.add(entry.replace(from, to));
  }
  return { zh: [...words.zh, ...zh], en: [...new Set([...words.en, ...spoken, ...en])] };
}

export const P = {
  standing: new Phrases({ zh: [...L.STANDING.zh, ...typos(L.TYPO_SOURCES).zh], en: [...L.STANDING.en, ...typos(L.TYPO_SOURCES).en] }),
  preferenceVerbs: new Phrases(L.PREFERENCE_VERBS),
  decision: new Phrases(L.DECISION),
  labels: new Phrases(L.RULING_LABELS),
  rulings: new Phrases(L.RULING_VERBS),
  imperativeRulings: new Phrases(L.IMPERATIVE_RULINGS),
  requestFrames: new Phrases(L.REQUEST_FRAMES),
  localObjects: new Phrases(L.LOCAL_OBJECTS),
  explicitDecision: new Phrases(L.EXPLICIT_DECISION),
  own: new Phrases(L.OWN_SUBJECTS),
  thirdParties: new Phrases(L.THIRD_PARTIES),
  otherProjects: new Phrases(L.OTHER_PROJECTS),
  comparisons: new Phrases(L.COMPARISONS),
  reporting: new Phrases(L.REPORTING),
  reportingFrames: new Phrases(L.REPORTING_FRAMES),
  temporary: new Phrases(L.TEMPORARY, 'either'),
  hypothetical: new Phrases(L.HYPOTHETICAL, 'either'),
  conditional: new Phrases(L.CONDITIONAL_OPENINGS),
  conditions: new Phrases(L.CONDITION_OPENINGS),
  example: new Phrases(L.EXAMPLE_OPENINGS),
  undecided: new Phrases(L.UNDECIDED, 'either'),
  speculation: new Phrases(L.SPECULATION, 'either'),
  hedgedGuesses: new Phrases(L.HEDGED_GUESSES, 'either'),
  provisionalSettlings: new Phrases(L.PROVISIONAL_SETTLINGS, 'either'),
  retractions: new Phrases(L.RETRACTIONS, 'either'),
  refusals: new Phrases(L.REFUSALS, 'either'),
  memoryHolds: new Phrases(L.MEMORY_HOLDS, 'either'),
  laterHolds: new Phrases(L.LATER_HOLDS, 'either'),
  laterPartial: new Phrases(L.LATER_PARTIAL, 'either'),
  politeRequests: new Phrases(L.POLITE_REQUESTS, 'either'),
  suggestions: new Phrases(L.SUGGESTION_OPENERS),
  otherOwners: new Phrases(L.OTHER_PROJECT_NP.otherOwners, 'none'),
  revisionVerbs: new Phrases(L.REVISION_LEADS.verbs, 'either'),
  revisedChoices: new Phrases(L.REVISION_LEADS.choices, 'either'),
  weakeners: new Phrases(L.WEAKENERS, 'either'),
  sarcasm: new Phrases(L.SARCASM, 'either'),
  sarcasmCues: new Phrases(L.SARCASM_CUES, 'either'),
  corrections: new Phrases(L.CORRECTIONS, 'either'),
  adoptions: new Phrases(L.ADOPTIONS, 'either'),
  deictics: new Phrases(L.DEICTICS, 'either'),
  projectScopes: new Phrases(L.PROJECT_SCOPES, 'either'),
  proposalNouns: new Phrases(L.PROPOSAL_NOUNS, 'either'),
  proposalParts: new Phrases(L.PROPOSAL_PARTS, 'either'),
  proposalReferences: new Phrases(L.PROPOSAL_REFERENCES, 'either'),
  extensions: new Phrases(L.EXTENSIONS, 'either'),
  answerTopics: new Phrases(L.ANSWER_TOPICS, 'either'),
  tagQuestions: new Phrases(L.TAG_QUESTIONS),
  aNotA: new Phrases({ zh: L.ZH_QUESTION.aNotA, en: [] }, 'either'),
  zhWh: new Phrases({ zh: L.ZH_QUESTION.wh, en: [] }, 'either'),
  universals: new Phrases({ zh: L.ZH_QUESTION.universals, en: [] }),
  zhIndirect: new Phrases({ zh: L.ZH_QUESTION.indirect, en: [] }, 'either'),
  enIndirect: new Phrases({ zh: [], en: L.EN_QUESTION.indirect }),
  descriptiveMarkers: new Phrases(L.DESCRIPTIVE_MARKERS),
  compounds: new Phrases(L.NOUN_COMPOUNDS, 'none'),
  codeFacts: new Phrases(L.CODE_FACT),
  discussion: new Phrases(L.DISCUSSION),
  confirmations: new Phrases(L.CONFIRMATIONS),
  fillers: new Phrases(L.CONFIRMATION_FILLERS),
  proposals: new Phrases(L.PROPOSALS),
  // The segmenter may glue a negation to its pronoun ("我不|建议"): one boundary is enough, minus the words in NOT_NEGATIONS.
  negations: new Phrases({ zh: L.NEGATIONS.zh.filter((n) => n.length === 1), en: L.NEGATIONS.en }, 'either'),
  // Two-character negations are never part of another word, and the segmenter may glue them to a pronoun ("我不是").
  longNegations: new Phrases({ zh: L.NEGATIONS.zh.filter((n) => n.length > 1), en: [] }, 'none'),
  aboutAnswers: new Phrases(L.ABOUT_ANSWERS),
  notDisqualifiers: new Phrases(L.NOT_DISQUALIFIERS, 'none'),
  notParties: new Phrases(L.NOT_PARTIES, 'none'),
  complaints: new Phrases(L.COMPLAINTS, 'either'),
  embedding: new Phrases(L.EMBEDDING_VERBS, 'either'),
  offers: new Phrases(L.OFFERS),
  // Deontic modals ("必须", "得", "should"): whole words — "得" is no modal inside "觉得" or "记得".
  deontic: new Phrases(L.SHAPE.deontic),
  disagreement: new Phrases(L.DISAGREEMENT, 'either'),
  trial: new Phrases(L.TRIAL),
};

export const NOT_NEGATION = new Set(L.NOT_NEGATIONS);
// "对对对", "嗯对，…", "好好，…": two words of assent stacked at the start of the sentence.
export const REPEATED_ASSENT = new RegExp(
  `^[\\s\\p{P}]*(?:${L.ASSENT_WORDS.join('|')})[啊呀的]?[\\s，,]*(?:${L.ASSENT_WORDS.join('|')})`,
  'u',
);
// "…, what could possibly go wrong", "…，能出什么事嘛": a later clause asking a question that wants no
// answer (a wh-word and a copula or modal in English; a wh-word and a final particle with no question mark in Chinese).
export const RHETORICAL_CLAUSE_EN = /^[\s\p{P}]*(?:what|who|how|why)(?:'s|\s+(?:is|could|would|can|cares|needs))\b/u;
export const RHETORICAL_CLAUSE_ZH = /(?:什么|谁|啥)[^，,。.!！?？]{0,8}(?:嘛|呢|啊|呀)[\s\p{P}\p{S}]*$/u;
// "…，多有意思", "多方便呢": a last clause of 多 and one word (mood.ts reads whether it is an adjective).
export const EXCLAMATIVE_END = /[，,]\s*多(\p{Script=Han}{1,3}?)(?:啊|呀|呢|了|哦)?[\s\p{P}\p{S}]*$/u;
// "Loki 先不搞了", "暂时不加": a clause that holds a thing back for now, its verb ending the clause.
export const HOLD_CLAUSE = new RegExp(`(?:${L.HOLD_ADVERBS.join('|')})(?:不|别)\\p{Script=Han}{1,2}了?$`, 'u');
// "这个先不急", "这事以后再说": a clause opened by a word pointing back at what was just said.
export const ANAPHORIC_OPENING = new RegExp(`^[\\s\\p{P}]*(?:但是?|不过|只是)?(?:${L.ZH_ANAPHORS.join('|')})`, 'u');
// "…, as the architects decided", "that's what the style guide says": a party named after the act as its source.
export const EN_ATTRIBUTION = new RegExp(
  "\\b(?:as|that's what|that is what|according to)\\s+(?!i\\b|we\\b|you\\b)(?:the\\s+|our\\s+|my\\s+)?[a-z][\\w\\s-]{0,30}?\\s" +
    '(?:decided|said|says|wants?|wanted|requires?|required|recommends?|recommended|mandates?|mandated|suggested|agreed|wrote|asked)\\b',
  'u',
);
// "we'll discuss whether to adopt …": an act inside a whether-complement is an open question.
export const EN_WHETHER = /\bwhether\b/u;
// "From now on I'll be working from Berlin": after the marker, what the user will do, not a wish.
export const EN_SELF_FUTURE = /^[\s,]*(?:i'll|i will|i'm going to|i am going to)\b/u;
// … or it is to be confirmed again later ("下周开会再确认一下").
// ("不再讨论", "不用再商量" close the matter: a negated 再 puts nothing off.)
export const NOT_YET_AGREED = new RegExp(
  `(?:${L.NOT_YET.zh.join('|')})[^，,。]{0,6}?(?:${L.AGREEING_VERBS.zh.join('|')})` +
    `|(?<!不|别|不用|无需|不必|不需要|没必要)再(?:${L.AGREEING_VERBS.zh.join('|')})` +
    `|\\b(?:${L.NOT_YET.en.join('|')})\\b[^,.;]{0,24}?\\b(?:${L.AGREEING_VERBS.en.join('|')})\\b`,
  'u',
);
export const SARCASM_OPENER = new RegExp(
  `^[\\s\\p{P}]*(?:${[...L.SARCASM_OPENERS.zh, ...L.SARCASM_OPENERS.en].join('|')})(?![\\p{L}])[\\s\\p{P}]`,
  'u',
);
export const PARTY_OBJECT = new RegExp(
  `(?:${[...L.PARTY_PREPOSITIONS.zh, ...L.PARTY_PREPOSITIONS.en.map((w) => `\\b${w}`)].join('|')})\\s*(?:the\\s+)?$`,
  'u',
);
export const PARTY_MADE = new RegExp(`^\\s*(?:${L.PARTY_MADE.join('|')})的`, 'u');
// "组件", "组合", "组成" are words, not groups.
export const GROUP = new RegExp(
  `([\\p{Script=Han}A-Za-z0-9]{1,8}?)(?:${L.GROUP_SUFFIXES.join('|')})(?!${L.GRAMMAR.notGroupEndings.join('|')})`,
  'u',
);
export const EN_PAST = new Set(L.EN_PAST);
export const EN_MISHAPS = new Set(L.EN_MISHAPS);
export const EN_RESULT_SUBJECTS = new Set(L.EN_RESULT_SUBJECTS);
export const EN_DECIDING = L.EN_DECIDING;
export const EN_OPENERS = new Set(L.EN_OPENERS);
export const ZH_FACT = new RegExp(L.FACT_SHAPES.zh, 'u');
export const EN_FACT = new RegExp(L.FACT_SHAPES.en, 'u');
export const FACT_CLAUSES: readonly RegExp[] = L.FACT_CLAUSES.map((source) => new RegExp(source, 'u'));
export const IMPERSONAL_FACT_CLAUSES: readonly RegExp[] = L.IMPERSONAL_FACT_CLAUSES.map((source) => new RegExp(source, 'u'));
export const AFTER_EVENT = new RegExp(`(?:${[...L.AFTER_EVENTS.zh, ...L.AFTER_EVENTS.en].join('|')})[^，,。]*$`, 'u');
export const EN_AUX = new Set(L.EN_QUESTION.auxiliaries);
export const EN_SUBJECTS = new Set(L.EN_QUESTION.subjects);
export const EN_WH = new Set(L.EN_QUESTION.wh);
export const EN_CONDITIONAL_WH = new Set(L.EN_QUESTION.conditionalWh);
export const EN_DESCRIPTION = new Set(L.DESCRIPTION.en);
export const DESCRIPTIVE = new Set([...L.DESCRIPTIVE_MARKERS.zh, ...L.DESCRIPTIVE_MARKERS.en]);
export const G = L.GRAMMAR;
/** An alternation of words, escaped, for the grammar patterns below. */
const HAN_ENTRY = /\p{Script=Han}/u;
export const anyOf = (words: readonly string[]): string => `(?:${words.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
export const setOf = (words: readonly string[]): ReadonlySet<string> => new Set(words);
export const HAN = /\p{Script=Han}/u;
export const WORD = /[\p{L}\p{N}'_-]+/gu;
// A question mark; a "?" set apart by spaces before a word ("with ? instead of unwrap()") is a symbol of code.
export const QUESTION_MARK = /？|\?(?!(?<=(?:\b(?:with|the|a|an|use|using|of|and|or)|[用把和或])[^\S\n]+\?)[^\S\n]+[\p{L}\p{N}(])/iu;
export const QUESTION_MARKS = new RegExp(QUESTION_MARK.source, 'giu');
export const ZH_FINAL = new RegExp(`(?:${L.ZH_QUESTION.finals.join('|')})[\\s。.!！~～…]*$`, 'u');
// A Chinese failure or state right after a descriptive marker: "总是报错", "一直超时".
export const ZH_BEHAVIOUR = new RegExp(`^\\s*(?:都|也)?\\s*${anyOf(G.zhBehaviourAfter)}`, 'u');
export const ZH_FAILURE = new RegExp(`^\\s*(?:都|会|也)?\\s*${anyOf(G.zhFailures)}`, 'u');
export const ZH_EVENT = new RegExp(`^\\s*(?:都|也)?\\s*会\\s*${anyOf(G.zhEvents)}`, 'u');
export const ZH_DURATION = new RegExp(
  `^\\s*(?:都|也)?\\s*(?:要|得)?\\s*(?:${anyOf(G.zhDurations)}\\s*[\\d一二两三四五六七八九十几半]+|[\\d一二两三四五六七八九十几半]+\\s*${anyOf(G.zhTimeUnits)})`,
  'u',
);
export const ZH_IMPERATIVE_START = new RegExp(`^\\s*${anyOf(G.zhImperativeStarts)}`, 'u');
export const ZH_DEMONSTRATIVE = new RegExp(`^\\s*${anyOf(G.zhDemonstratives)}`, 'u');
export const CONSEQUENCE = new RegExp(`${anyOf(G.consequences)}\\s*$`, 'u');
export const CONDITION_END = new RegExp(`${anyOf(G.conditionEndings)}\\s*$`, 'u');
export const ACT_CONDITION_END = new RegExp(`${anyOf(G.actConditionEndings)}\\s*$`, 'u');
export const ACT_CONDITION_FOLLOWER = new RegExp(`^\\s*${anyOf(G.actConditionFollowers)}`, 'u');
export const PROHIBITIVE = new RegExp(`^${anyOf(G.prohibitiveStarts)}(?![a-z])`, 'u');
// "别再…", "不要…": a clause opened by a prohibitive is a directive, whatever wh-word its object holds.
export const DIRECTIVE_OPENING = new RegExp(
  `^[\\s\\p{P}]*(?:${anyOf([...G.clauseLeads, ...L.SHAPE.time.zh])}\\s*)*${anyOf(G.prohibitives.filter((w) => HAN_ENTRY.test(w)))}`,
  'u',
);
// "for a hobby project of mine", "in my personal dotfiles repo": another project named by its determiner, with at
// least one word of its own between the determiner and the noun.
const OP = L.OTHER_PROJECT_NP;
export const OTHER_PROJECT_NP = new RegExp(
  `(?<![\\p{L}])${anyOf(OP.enPrepositions)}\\s+${anyOf(OP.enDeterminers)}\\s+(?:(?!this\\b|the\\b)[\\w.-]+\\s+){1,3}` +
    `${anyOf(OP.nouns.en)}(?![\\p{L}])|(?<![\\p{L}])${anyOf(OP.nouns.en)}\\s+of\\s+mine\\b` +
    `|${anyOf(OP.zhOwners)}${anyOf(OP.zhIndefinites)}[^，,。\\s]{0,2}\\s*[\\w.-]*\\s*${anyOf(OP.nouns.zh)}` +
    `|${anyOf(OP.zhOthers)}[^，,。\\s]{0,2}\\s*[\\w.-]*\\s*${anyOf(OP.nouns.zh)}` +
    `|(?<![\\p{L}])${anyOf(OP.enPrepositions)}\\s+my\\s+(?:own\\s+)?(?:(?!own\\b)[\\w.-]+\\s+){1,2}${anyOf(OP.ownWork)}(?![\\p{L}])` +
    `|(?<![\\p{L}])${anyOf(OP.enPrepositions)}\\s+the\\s+(?!${anyOf(OP.thisModifiers)}\\s)(?:[\\w.-]+\\s+){1,3}` +
    `${anyOf(OP.namedNouns)}(?![\\p{L}])`,
  'u',
);
const FW = L.FOLLOW_UP_WORK;
export const FOLLOW_UP = new RegExp(
  `(?:(?<![\\p{L}])${anyOf(FW.joints.en)}\\s+${anyOf(FW.verbs.en)}(?![\\p{L}])` +
    `|${anyOf(FW.joints.zh)}\\s*(?:把[^，,。]{1,12}?)?${anyOf(FW.verbs.zh)})`,
  'u',
);
export const FUTURE_ADVERB = setOf(G.futureAdverbs);
export const RULE_WORD = new RegExp(anyOf(G.ruleWords), 'u');
export const EN_RULING_LEAD = new RegExp(`^[\\s\\p{P}]*(?:${anyOf(G.enRulingLeads)}\\s*)*$`, 'u');
export const EN_RELATIVE_BEFORE = new RegExp(`\\b${anyOf(G.enRelatives)}\\s+$`, 'u');
export const JOINT = new RegExp(`(?:我们|我|咱们|we|our team)\\s*${anyOf(G.joints)}\\s*(?:the\\s+)?$`, 'u');
export const GROUP_OWNER = new RegExp(anyOf(G.groupOwners), 'u');
// Latin entries are whole words: "gemini" does not end in the pronoun "i".
export const NOT_REPORTER = new RegExp(
  `(?:${anyOf(G.notReporters.filter((w) => HAN_ENTRY.test(w)))}|(?<![\\p{L}])${anyOf(G.notReporters.filter((w) => !HAN_ENTRY.test(w)))})$`,
  'u',
);
export const OWN_SUBJECT_ADVERBS = new RegExp(anyOf(G.ownSubjectAdverbs), 'gu');
// Right after a party: "老板定的", "领导说的"; right before one: "says my manager", "according to the PM".
export const ATTRIBUTION_AFTER = new RegExp(`^\\s*(?:也|都|就|已经)?\\s*${anyOf(G.attributionTails)}`, 'u');
export const REPORTING_BEFORE = new RegExp(`\\b${anyOf(G.enReportingVerbs)}\\s+(?:by\\s+)?$`, 'u');
export const SPEAKER_FILLERS = new RegExp(anyOf(G.speakerFillers), 'gu');
export const ZH_NOT_QUESTION_BEFORE = new RegExp(anyOf(G.zhNotQuestionBefore), 'u');
export const ZH_WHY = new RegExp(anyOf(G.zhWhy), 'u');
export const ZH_UNIVERSAL_AFTER = new RegExp(`^[^，,。]{0,8}?${anyOf(G.zhUniversalAfter)}`, 'u');
export const ZH_NOT_WH_BEFORE = new RegExp(`${anyOf(G.zhNotWhBefore)}$`, 'u');
export const ZH_WH_END = new RegExp(anyOf(G.zhWhEnds), 'u');
export const EN_CLAUSE_OPENER = new RegExp(`^\\s*${anyOf(G.enClauseOpeners)}\\b[\\s,]*`, 'u');
export const EN_PERSONS = setOf(G.enPersons);
export const EN_DETERMINERS = setOf(G.enDeterminers);
export const EN_WANTING = setOf(G.enWanting);
export const EN_BE = setOf(G.enBe);
export const EN_PERFECT = setOf(G.enPerfect);
export const EN_WISH_STARTS = setOf(G.enWishStarts);
export const EN_LONE_ADVERB = new RegExp(`^${anyOf(G.enLoneAdverbs)}$`, 'u');
export const CHANGE_VERB = new RegExp(anyOf(G.changeVerbs), 'u');
export const HEDGE_NEGATION = new RegExp(`${anyOf(G.hedgeNegations)}\\s*$`, 'u');
export const LABEL_LEAD = new RegExp(`^[\\s*#>_-]*(?:${anyOf(G.labelLeads)}[\\s,，]+)?[\\s*#>_-]*`, 'u');
export const POSTPONE_END = new RegExp(`${anyOf(G.postponeEndings)}\\s*[。.!！吧了]*\\s*$`, 'u');
export const BARE_CONFIRMATION = new RegExp(`^${anyOf(G.bareConfirmations)}$`, 'iu');
