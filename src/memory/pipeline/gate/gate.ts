import { type Piece, clausesOf, sentencesCovering, sentencesOf } from './clauses.js';
import * as L from './lexicon.js';
import { inCodeOrOutput, insideRanges, quotedRanges } from './text-types.js';
import { type Hit, Phrases, Span, fold } from './words.js';

export { inCodeOrOutput } from './text-types.js';

/**
 * The speech-act gate (M-5.3, M-5.6): does a quoted user statement carry the user's own standing wish or this
 * project's ruling? It reads the clause the quote stands in — who speaks, about what, in which kind of
 * text — and looks at the sentence and its neighbours only where the language needs them (a condition
 * beside a rule, a retraction right after, a tag question, a reporting frame before).
 */

export type GateReason =
  | 'assistant_only'
  | 'code_or_tool_output'
  | 'quoted_speech'
  | 'no_speech_act'
  | 'negated'
  | 'question'
  | 'hypothetical'
  | 'example'
  | 'undecided'
  | 'speculation'
  | 'temporary'
  | 'retracted'
  | 'third_party'
  | 'other_project'
  | 'description'
  | 'one_off_request'
  | 'code_fact';

export interface GateProblem {
  reason: GateReason;
  detail: string;
}

export type StatementKind = 'user_preference' | 'project_decision';

const problem = (reason: GateReason, detail: string): GateProblem => ({ reason, detail });

const P = {
  standing: new Phrases(L.STANDING),
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
  retractions: new Phrases(L.RETRACTIONS, 'either'),
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
  embedding: new Phrases(L.EMBEDDING_VERBS, 'either'),
  offers: new Phrases(L.OFFERS),
};

const NOT_NEGATION = new Set(L.NOT_NEGATIONS);
// "组件", "组合", "组成" are words, not groups.
const GROUP = new RegExp(`([\\p{Script=Han}A-Za-z0-9]{1,8}?)(?:${L.GROUP_SUFFIXES.join('|')})(?!${L.GRAMMAR.notGroupEndings.join('|')})`, 'u');
const EN_PAST = new Set(L.EN_PAST);
const EN_MISHAPS = new Set(L.EN_MISHAPS);
const EN_RESULT_SUBJECTS = new Set(L.EN_RESULT_SUBJECTS);
const EN_DECIDING = L.EN_DECIDING;
const EN_OPENERS = new Set(L.EN_OPENERS);
const ZH_FACT = new RegExp(L.FACT_SHAPES.zh, 'u');
const EN_FACT = new RegExp(L.FACT_SHAPES.en, 'u');
const AFTER_EVENT = new RegExp(`(?:${L.AFTER_EVENTS.zh.join('|')})$`, 'u');
const EN_AUX = new Set(L.EN_QUESTION.auxiliaries);
const EN_SUBJECTS = new Set(L.EN_QUESTION.subjects);
const EN_WH = new Set(L.EN_QUESTION.wh);
const EN_CONDITIONAL_WH = new Set(L.EN_QUESTION.conditionalWh);
const EN_DESCRIPTION = new Set(L.DESCRIPTION.en);
const DESCRIPTIVE = new Set([...L.DESCRIPTIVE_MARKERS.zh, ...L.DESCRIPTIVE_MARKERS.en]);
const G = L.GRAMMAR;
/** An alternation of words, escaped, for the grammar patterns below. */
const anyOf = (words: readonly string[]): string => `(?:${words.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
const setOf = (words: readonly string[]): ReadonlySet<string> => new Set(words);
const HAN = /\p{Script=Han}/u;
const WORD = /[\p{L}\p{N}'_-]+/gu;
const QUESTION_MARK = /[?？]/u;
const ZH_FINAL = new RegExp(`(?:${L.ZH_QUESTION.finals.join('|')})[\\s。.!！~～…]*$`, 'u');
// A Chinese failure or state right after a descriptive marker: "总是报错", "一直超时".
const ZH_BEHAVIOUR = new RegExp(`^\\s*(?:都|也)?\\s*${anyOf(G.zhBehaviourAfter)}`, 'u');
const ZH_FAILURE = new RegExp(`^\\s*(?:都|会|也)?\\s*${anyOf(G.zhFailures)}`, 'u');
const ZH_EVENT = new RegExp(`^\\s*(?:都|也)?\\s*会\\s*${anyOf(G.zhEvents)}`, 'u');
const ZH_DURATION = new RegExp(`^\\s*(?:都|也)?\\s*(?:要|得)?\\s*${anyOf(G.zhDurations)}\\s*[\\d一二两三四五六七八九十几半]+`, 'u');
const ZH_IMPERATIVE_START = new RegExp(`^\\s*${anyOf(G.zhImperativeStarts)}`, 'u');
const ZH_DEMONSTRATIVE = new RegExp(`^\\s*${anyOf(G.zhDemonstratives)}`, 'u');
const CONSEQUENCE = new RegExp(`${anyOf(G.consequences)}\\s*$`, 'u');
const CONDITION_END = new RegExp(`${anyOf(G.conditionEndings)}\\s*$`, 'u');
const ACT_CONDITION_END = new RegExp(`${anyOf(G.actConditionEndings)}\\s*$`, 'u');
const ACT_CONDITION_FOLLOWER = new RegExp(`^\\s*${anyOf(G.actConditionFollowers)}`, 'u');
const PROHIBITIVE = new RegExp(`^${anyOf(G.prohibitiveStarts)}`, 'u');
const FUTURE_ADVERB = setOf(G.futureAdverbs);
const RULE_WORD = new RegExp(anyOf(G.ruleWords), 'u');
const EN_RULING_LEAD = new RegExp(`^[\\s\\p{P}]*(?:${anyOf(G.enRulingLeads)}\\s*)*$`, 'u');
const EN_RELATIVE_BEFORE = new RegExp(`\\b${anyOf(G.enRelatives)}\\s+$`, 'u');
const JOINT = new RegExp(`(?:我们|我|咱们|we|our team)\\s*${anyOf(G.joints)}\\s*(?:the\\s+)?$`, 'u');
const GROUP_OWNER = new RegExp(anyOf(G.groupOwners), 'u');
const NOT_REPORTER = new RegExp(`${anyOf(G.notReporters)}$`, 'u');
const OWN_SUBJECT_ADVERBS = new RegExp(anyOf(G.ownSubjectAdverbs), 'gu');
const ATTRIBUTION_TAIL = new RegExp(anyOf(G.attributionTails), 'u');
const ZH_NOT_QUESTION_BEFORE = new RegExp(anyOf(G.zhNotQuestionBefore), 'u');
const ZH_WHY = new RegExp(anyOf(G.zhWhy), 'u');
const ZH_UNIVERSAL_AFTER = new RegExp(`^[^，,。]{0,8}?${anyOf(G.zhUniversalAfter)}`, 'u');
const ZH_NOT_WH_BEFORE = new RegExp(`${anyOf(G.zhNotWhBefore)}$`, 'u');
const ZH_WH_END = new RegExp(anyOf(G.zhWhEnds), 'u');
const EN_CLAUSE_OPENER = new RegExp(`^\\s*${anyOf(G.enClauseOpeners)}\\b[\\s,]*`, 'u');
const EN_PERSONS = setOf(G.enPersons);
const EN_DETERMINERS = setOf(G.enDeterminers);
const EN_WANTING = setOf(G.enWanting);
const EN_BE = setOf(G.enBe);
const EN_PERFECT = setOf(G.enPerfect);
const EN_WISH_STARTS = setOf(G.enWishStarts);
const EN_LONE_ADVERB = new RegExp(`^${anyOf(G.enLoneAdverbs)}$`, 'u');
const CHANGE_VERB = new RegExp(anyOf(G.changeVerbs), 'u');
const BARE_CONFIRMATION = new RegExp(`^${anyOf(G.bareConfirmations)}$`, 'iu');

interface Act {
  type: 'standing' | 'preference' | 'decision' | 'label' | 'ruling';
  hit: Hit;
  clause: number;
  negated: boolean;
  quoted: boolean;
}

/** A sentence prepared for judging: folded text, clauses and quoted ranges in folded offsets. */
class Sentence {
  readonly span: Span;
  readonly clauses: Piece[];
  private quotedCache: [number, number][] | null = null;

  constructor(readonly text: string, readonly piece: Piece) {
    const folded = fold(text.slice(piece.start, piece.end));
    this.span = new Span(folded);
    this.clauses = clausesOf(folded, { start: 0, end: folded.length });
    if (this.clauses.length === 0) this.clauses.push({ start: 0, end: folded.length });
  }

  private readonly memo = new Map<Phrases, Hit[]>();

  /** Hits of a lexicon in [from, to) of this sentence; the whole-sentence scan runs once per lexicon. */
  hits(phrases: Phrases, from = 0, to = this.span.text.length): Hit[] {
    let all = this.memo.get(phrases);
    if (!all) {
      all = phrases.find(this.span);
      this.memo.set(phrases, all);
    }
    return from === 0 && to >= this.span.text.length ? all : all.filter((h) => h.index >= from && h.end <= to);
  }

  get quoted(): [number, number][] {
    this.quotedCache ??= quotedRanges(this.span.text);
    return this.quotedCache;
  }

  /** A raw offset of the turn text, in this sentence's folded offsets. */
  at(offset: number): number {
    const clamped = Math.min(Math.max(offset, this.piece.start), this.piece.end);
    return fold(this.text.slice(this.piece.start, clamped)).length;
  }

  clauseOf(index: number): number {
    for (let i = 0; i < this.clauses.length; i += 1) if (index < this.clauses[i]!.end) return i;
    return this.clauses.length - 1;
  }

  clauseText(i: number): string {
    const c = this.clauses[i]!;
    return this.span.text.slice(c.start, c.end);
  }

  /** Clauses that state a condition of a rule ("when you're unsure …", "遇到…的时候"). */
  isCondition(i: number): boolean {
    const text = this.clauseText(i).trim();
    const opening = P.conditions.first(new Span(text));
    if (opening && opening.index === 0) return true;
    return CONDITION_END.test(text);
  }
}

function overlaps(a: Hit, b: Hit): boolean {
  return a.index < b.end && b.index < a.end;
}

function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** True when only spaces and punctuation stand between the start of the clause and the offset. */
function opensClause(s: Sentence, index: number): boolean {
  const c = s.clauses[s.clauseOf(index)]!;
  return /^[\s\p{P}\p{S}]*$/u.test(s.span.text.slice(c.start, index));
}

function findActs(s: Sentence, kind: StatementKind): Act[] {
  const compounds = s.hits(P.compounds);
  // "升级以后", "改完以后": 以后 after a verb or noun is "after X", not "from now on".
  const afterX = (hit: Hit): boolean => {
    if (!/^(?:以后|之后|往后)$/u.test(hit.text)) return false;
    const before = s.span.text.slice(s.clauses[s.clauseOf(hit.index)]!.start, hit.index).trimEnd();
    return AFTER_EVENT.test(before);
  };
  const acts: Act[] = [];
  const add = (type: Act['type'], hits: Hit[]): void => {
    for (const hit of hits) {
      if (compounds.some((c) => hit.index >= c.index && hit.end <= c.end && c.text !== hit.text)) continue;
      if (type === 'standing' && afterX(hit)) continue;
      if (acts.some((a) => a.hit.index === hit.index && a.hit.end === hit.end)) continue;
      const clause = s.clauseOf(hit.index);
      acts.push({ type, hit, clause, negated: isNegated(s, hit, clause), quoted: insideRanges(s.quoted, hit.index, hit.end) });
    }
  };
  const label = rulingLabel(s);
  if (label) add('label', [label]);
  if (kind === 'user_preference') {
    add('standing', s.hits(P.standing));
    add('preference', s.hits(P.preferenceVerbs));
  } else {
    add('decision', s.hits(P.decision));
    add('ruling', s.hits(P.rulings));
    // A standing pattern about answers or the assistant is a preference, never a project decision.
    if (!(s.hits(P.aboutAnswers).length > 0)) add('standing', s.hits(P.standing));
  }
  return acts;
}

/** "Decision: …", "**结论**：…" at the start of the sentence. */
function rulingLabel(s: Sentence): Hit | null {
  const lead = /^[\s*#>_-]*/u.exec(s.span.text)![0].length;
  const hit = P.labels.first(s.span, lead, Math.min(s.span.text.length, lead + 24));
  if (!hit || hit.index !== lead) return null;
  // "Decision:", "**结论**：", "Rule of thumb for this repo:": a few words may qualify the label before its colon.
  return /^[^:：。.!?！？\n]{0,32}?[*_]*[:：]/u.test(s.span.text.slice(hit.end)) ? hit : null;
}

/** A negation a few characters (Chinese) or up to three words (English) before the act, in its clause. */
function isNegated(s: Sentence, hit: Hit, clause: number): boolean {
  if (PROHIBITIVE.test(hit.text)) return false;
  const from = Math.max(s.clauses[clause]!.start, hit.index - 24);
  for (const neg of [...s.hits(P.negations, from, hit.index), ...s.hits(P.longNegations, from, hit.index)]) {
    if (neg.end > hit.index) continue;
    if (NOT_NEGATION.has(s.span.text.slice(neg.index, neg.index + 2))) continue;
    const between = s.span.text.slice(neg.end, hit.index);
    if (HAN.test(neg.text)) {
      if (Array.from(between.trim()).length <= 4) return true;
    } else if (wordsOf(between).length <= 3 && !/[,.;:!?，。；：！？]/u.test(between)) {
      return true;
    }
  }
  return false;
}

/** Why one act does not stand as the user's own standing wish or ruling, or null when it does. */
function actProblem(s: Sentence, act: Act, quoteClauses: ReadonlySet<number>, kind: StatementKind): GateProblem | null {
  const text = s.span.text;
  const clause = s.clauses[act.clause]!;
  if (act.quoted) return problem('quoted_speech', 'the speech act stands inside quotation marks');

  // Who speaks, about which project.
  for (const other of s.hits(P.otherProjects, 0, clause.end)) {
    if (other.index >= act.hit.index && s.clauseOf(other.index) !== act.clause) continue;
    const lead = text.slice(Math.max(0, other.index - 4), other.index);
    if (P.comparisons.find(new Span(lead)).some((c) => c.end >= lead.trimEnd().length - 1)) continue;
    return problem('other_project', 'the statement is about another or an earlier project');
  }
  const speaker = thirdParty(s, act);
  if (speaker) return problem('third_party', speaker);

  // Time scope: a request for this answer only.
  const actHits = [act.hit];
  for (const t of s.hits(P.temporary)) {
    if (actHits.some((h) => overlaps(h, t)) || masked(s, t)) continue;
    if (findActsOverlap(s, t)) continue;
    const tc = s.clauseOf(t.index);
    if (tc === act.clause) return problem('temporary', 'a request for this answer only');
    if (!quoteClauses.has(act.clause) && quoteClauses.has(tc)) return problem('temporary', 'the quoted clause is for this answer only');
    if (tc < act.clause && isBareClause(s, tc)) return problem('temporary', 'the sentence is scoped to this answer only');
  }

  // Mood: hypothetical, question, example, undecided, speculation.
  const question = questionSignal(s, act);
  if (question && !question.includes('wh-')) return problem('question', question);
  if (ACT_CONDITION_FOLLOWER.test(text.slice(act.hit.end, clause.end))) return problem('hypothetical', 'the act is the condition of a request');
  if (ACT_CONDITION_END.test(text.slice(act.hit.end, clause.end))) return problem('hypothetical', 'the act stands inside a condition (…的话)');
  if (s.hits(P.hypothetical).some((h) => !overlaps(h, act.hit) && !masked(s, h))) return problem('hypothetical', 'the statement is hypothetical');
  const clauseText = text.slice(clause.start, clause.end);
  const lead = clauseText.length - clauseText.trimStart().length;
  const conditional = P.conditional.first(s.span, clause.start + lead, clause.end);
  if (conditional && conditional.index === clause.start + lead && conditional.end <= act.hit.index) {
    if (!CONSEQUENCE.test(text.slice(conditional.end, act.hit.index))) return problem('hypothetical', 'the act stands inside a condition');
  }
  if (question) return problem('question', question);
  for (const ex of s.hits(P.example, 0, act.hit.index)) {
    if (opensClause(s, ex.index)) return problem('example', 'the statement is an example');
  }
  for (const u of s.hits(P.undecided)) {
    if (overlaps(u, act.hit) || masked(s, u) || s.isCondition(s.clauseOf(u.index))) continue;
    return problem('undecided', 'the statement is undecided');
  }
  // A hedge tagged on after the act (", I guess", "，估计吧") covers the whole sentence.
  for (const sp of s.hits(P.speculation, clause.end)) {
    const c = s.clauses[s.clauseOf(sp.index)]!;
    const rest = P.speculation.strip(new Span(text.slice(c.start, c.end)));
    if (wordsOf(rest).length <= 2 && Array.from(rest.replace(/[\s\p{P}]/gu, '')).length <= 6) return problem('speculation', 'the statement is hedged');
  }
  for (const sp of s.hits(P.speculation, 0, clause.end)) {
    if (overlaps(sp, act.hit) || masked(s, sp) || s.isCondition(s.clauseOf(sp.index))) continue;
    if (isAttributive(text, sp)) continue;
    return problem('speculation', 'the statement is speculation');
  }

  // "我们以后会有一个新的数据平台": 以后 with 会 and no ruling is a prediction.
  if (act.type === 'standing' && FUTURE_ADVERB.has(act.hit.text)
    && /会(?!议|话)/u.test(text.slice(act.hit.end, clause.end)) && !s.hits(P.decision).length && !s.hits(P.rulings).length
    && !RULE_WORD.test(text.slice(act.hit.end, clause.end))) {
    return problem('speculation', 'a prediction, not a wish');
  }
  // What the act is: a description of behaviour, a one-off task.
  if (act.type === 'standing' && s.hits(P.descriptiveMarkers).some((d) => d.index === act.hit.index) && describesBehaviour(s, act)) {
    return problem('description', 'the sentence describes how software behaves, not a wish');
  }
  if (act.type === 'ruling' || act.type === 'decision') {
    const task = oneOffTask(s, act);
    if (task) return problem('one_off_request', task);
  }
  if (kind === 'project_decision' && act.type === 'ruling' && P.imperativeRulings.has(new Span(act.hit.text))) {
    const before = text.slice(clause.start, act.hit.index);
    if (!EN_RULING_LEAD.test(before)) {
      return problem('no_speech_act', 'the verb is not an imperative ruling');
    }
  }
  return null;
}

/** True when a disqualifier word is part of a word that means something else ("默认假设", "临时文件"). */
function masked(s: Sentence, hit: Hit): boolean {
  return s.hits(P.notDisqualifiers).some((m) => hit.index >= m.index && hit.end <= m.end);
}

/** True when the hit lies inside another act of any kind (a temporary word inside "从今天开始"). */
function findActsOverlap(s: Sentence, hit: Hit): boolean {
  return [...s.hits(P.standing), ...s.hits(P.decision)].some((a) => a.index <= hit.index && a.end >= hit.end && a.text !== hit.text);
}

/** A clause that holds nothing but its time scope ("just this time,", "这次，"). */
function isBareClause(s: Sentence, i: number): boolean {
  const rest = P.temporary.strip(new Span(s.clauseText(i))).replace(/\b(?:only|just|but|and|so|ok|okay)\b|[只就先仅]/gu, '');
  const han = (rest.match(/\p{Script=Han}/gu) ?? []).length;
  return han <= 2 && wordsOf(rest.replace(/\p{Script=Han}/gu, ' ')).length <= 1;
}

/** "可能出错的地方", "anything that might break": a modal inside a noun phrase, not speculation. */
function isAttributive(text: string, hit: Hit): boolean {
  if (HAN.test(hit.text)) return /^[^，,。；;\s]{0,6}的/u.test(text.slice(hit.end));
  return EN_RELATIVE_BEFORE.test(text.slice(Math.max(0, hit.index - 16), hit.index));
}

/** The reason the act belongs to someone else (a third party, reported speech), or null. */
function thirdParty(s: Sentence, act: Act): string | null {
  const text = s.span.text;
  if (s.hits(P.reportingFrames, 0, act.hit.index).some((h) => h.end <= act.hit.index)) return 'reported speech';
  const owners = s.hits(P.own);
  const things = s.hits(P.notParties);
  const parties = s.hits(P.thirdParties, 0, act.hit.index).filter(
    (h) => h.end <= act.hit.index && !overlaps(h, act.hit) && !owners.some((o) => o.index <= h.index && o.end >= h.end)
      && !things.some((t) => t.index <= h.index && t.end >= h.end),
  );
  const last = parties[parties.length - 1];
  // "我们和后端组一起决定", "we and the platform team agreed": a joint act is ours too.
  const joint = last !== undefined && JOINT.test(text.slice(0, last.index));
  if (last && !joint) {
    if (s.hits(P.reporting, last.end, act.hit.index).length > 0) return 'someone else said it';
    if (s.hits(P.own, last.end, act.hit.index).length === 0) return 'someone else decided or wants it';
  }
  // "移动端团队决定…", "客户那边要求…": a named group that is not ours.
  const group = GROUP.exec(text.slice(0, act.hit.index));
  if (group && !GROUP_OWNER.test(group[1]!)) return 'another group decided or wants it';
  for (const rep of s.hits(P.reporting, 0, act.hit.index)) {
    if (rep.end > act.hit.index) continue;
    const c = s.clauses[s.clauseOf(rep.index)]!;
    const subject = text.slice(c.start, rep.index).trim();
    if (subject.length === 0) continue;
    // "我觉得", "我一直说" are mine; "我舍友说", "我们组长说" name someone else behind the pronoun.
    const owned = s.hits(P.own, c.start, rep.index).filter((h) => h.end <= rep.index);
    if (owned.length > 0 && !HAN.test(subject)) continue;
    if (owned.length > 0) {
      let rest = subject;
      for (const o of owned) rest = rest.replace(o.text, ' ');
      rest = rest.replace(OWN_SUBJECT_ADVERBS, ' ').replace(/[\s\p{P}]/gu, '');
      if (rest.length === 0) continue;
    }
    if (NOT_REPORTER.test(subject)) continue;
    return 'reported speech';
  }
  // English verbs of deciding need us as their subject: "Netflix decided …", "Alice agreed …" are someone else.
  if (!HAN.test(act.hit.text) && EN_DECIDING.some((v) => act.hit.text.includes(v))) {
    const clause = s.clauses[act.clause]!;
    const subject = wordsOf(text.slice(clause.start, act.hit.index)).filter((w) => !EN_OPENERS.has(w));
    const ownSubject = owners.some((o) => o.index >= clause.start && o.end <= act.hit.index) || owners.some((o) => o.index === act.hit.index);
    if (subject.length > 0 && !ownSubject && !EN_LONE_ADVERB.test(subject.join(' '))) {
      return 'someone else decided it';
    }
  }
  // "…, says my manager", "…，这是老板定的"
  const after = s.hits(P.thirdParties, act.hit.end).filter((h) => s.clauseOf(h.index) !== act.clause || h.index > act.hit.end);
  if (after.length > 0) {
    const tail = text.slice(act.hit.end);
    if (P.reporting.has(new Span(tail)) || ATTRIBUTION_TAIL.test(tail)) return 'attributed to someone else';
  }
  return null;
}

/** A question signal in the sentence, or null. */
function questionSignal(s: Sentence, act: Act): string | null {
  const text = s.span.text;
  for (const m of text.matchAll(/[?？]/gu)) if (!insideRanges(s.quoted, m.index, m.index + 1)) return 'the statement is a question';
  if (ZH_FINAL.test(text) && !ZH_WH_END.test(text.slice(-4))) return 'the statement is a question';
  for (const h of s.hits(P.aNotA)) {
    if (overlaps(h, act.hit)) continue;
    const before = text.slice(Math.max(s.clauses[s.clauseOf(h.index)]!.start, h.index - 4), h.index);
    if (ZH_NOT_QUESTION_BEFORE.test(before)) continue;
    // An embedded question is the object of telling or checking ("说一下索引有没有用上").
    if (s.hits(P.embedding, s.clauses[s.clauseOf(h.index)]!.start, h.index).length > 0) continue;
    return 'the statement is a question';
  }
  for (const h of s.hits(P.zhWh)) {
    const c = s.clauses[s.clauseOf(h.index)]!;
    const before = text.slice(c.start, h.index);
    const after = text.slice(h.end, c.end);
    const why = ZH_WHY.test(h.text);
    if (!why && (P.universals.has(new Span(before)) || ZH_UNIVERSAL_AFTER.test(after) || ZH_NOT_WH_BEFORE.test(before))) continue;
    if (s.hits(P.embedding, c.start, h.index).length > 0) continue;
    return 'the statement is a wh-question';
  }
  if ((s.hits(P.zhIndirect).length > 0) || (s.hits(P.enIndirect).length > 0)) return 'the statement is an indirect question';
  for (const i of new Set([0, act.clause])) {
    const words = wordsOf(s.clauseText(i).replace(EN_CLAUSE_OPENER, ''));
    const [first, second, third] = [words[0] ?? '', words[1] ?? '', words[2] ?? ''];
    if (EN_WH.has(first) && !(first === 'how' && second === 'about')) return 'the statement is a wh-question';
    if (EN_CONDITIONAL_WH.has(first) && EN_AUX.has(second)) return 'the statement is a wh-question';
    if (EN_AUX.has(first) && (EN_SUBJECTS.has(second) || (second === 'not' && EN_SUBJECTS.has(third)))) return 'the statement is a question';
  }
  return null;
}

/** "这个测试在 CI 上总是报错", "By default, Jackson fails on …": behaviour, not a wish. */
function describesBehaviour(s: Sentence, act: Act): boolean {
  const text = s.span.text;
  const clause = s.clauses[act.clause]!;
  const before = text.slice(clause.start, act.hit.index);
  let after = text.slice(act.hit.end, clause.end);
  // A fronted marker ("By default, …", "默认，…") describes the next clause.
  if (/^[\s\p{P}]*$/u.test(after) && s.clauses[act.clause + 1]) after = s.clauseText(act.clause + 1);
  // "咱们的 CI" is a thing of ours, not a person wishing.
  const ownBefore = s.hits(P.own, clause.start, act.hit.index).some((h) => h.end <= act.hit.index && !/^\s*的/u.test(text.slice(h.end)));
  if (HAN.test(act.hit.text)) {
    if (ownBefore) return false;
    if (ZH_FAILURE.test(after)) return true;
    // "每次调用都会新建连接", "每次 npm install 都会报警告": what happens, not what should.
    if (ZH_EVENT.test(after) || ZH_DURATION.test(after)) return true;
    // "默认情况下，Spring 的事务只对…回滚": a fronted default followed by a named product or "X 的 Y" describes it.
    if (before.trim().length === 0 && after !== text.slice(act.hit.end, clause.end) && /^\s*(?:[a-z][\w.-]*|[^，,。\s]{1,8}的)/u.test(after) && !ZH_IMPERATIVE_START.test(after)) return true;
    // "这个服务默认监听 8080 端口": a thing pointed at is described, not asked for.
    if (ZH_DEMONSTRATIVE.test(before)) return true;
    // "Kafka 默认保留 7 天": a product named in Latin letters as the subject describes that product.
    if (/^[\sa-z0-9._/@-]*[a-z][\sa-z0-9._/@-]*$/u.test(before) && before.trim().length > 0) return true;
    return before.trim().length > 0 && /\p{L}/u.test(before) && ZH_BEHAVIOUR.test(after) && !s.hits(P.standing).some((h) => h.index !== act.hit.index && !DESCRIPTIVE.has(h.text));
  }
  const wordsBefore = wordsOf(before);
  const wordsAfter = wordsOf(after);
  // A habit in the past ("I never got …", "we have always used …") is a description, whoever the subject.
  const past = (w: string | undefined): boolean => w !== undefined && (EN_PAST.has(w) || (/ed$/u.test(w) && w.length > 4));
  if (past(wordsAfter[0]) || wordsBefore.some((w) => EN_PERFECT.has(w))) return true;
  // "I always forget the flag": one's own mishap is a habit described, not a wish.
  if (wordsAfter[0] !== undefined && EN_MISHAPS.has(wordsAfter[0]) && wordsBefore.some((w) => w === 'i' || w === 'we')) return true;
  // "every time I run the tests, they fail": the next clause says what happens.
  if (/^(?:every time|each time|whenever)$/u.test(act.hit.text) && s.clauses[act.clause + 1]) {
    const next = wordsOf(s.clauseText(act.clause + 1));
    if (next[0] !== undefined && EN_RESULT_SUBJECTS.has(next[0])) return true;
    // "Whenever I open this file, IntelliJ freezes": a named subject and a verb of what it does.
    const verb = next[1];
    if (next[0] !== undefined && !EN_WISH_STARTS.has(next[0]) && verb !== undefined && EN_DESCRIPTION.has(verb)) return true;
  }
  // "The tests never finish", "Our nightly job always fails": a thing as the subject, with no modal of wanting.
  if (EN_DETERMINERS.has(wordsBefore[0] ?? '') && !wordsBefore.some((w) => EN_WANTING.has(w))) return true;
  if (wordsBefore.some((w) => EN_PERSONS.has(w))) return false;
  if (wordsBefore.some((w) => EN_BE.has(w))) return true;
  const thirdPerson = (w: string | undefined): boolean => w !== undefined && (EN_DESCRIPTION.has(w) || (/[^s]s$/u.test(w) && w.length > 3));
  if (wordsBefore.length > 0) return wordsAfter.length > 0 ? thirdPerson(wordsAfter[0]) : wordsBefore.slice(1, 3).some(thirdPerson);
  // Fronted ("By default, …"): a subject that is not a person, followed by a verb of behaviour.
  const first = wordsAfter[0];
  if (first === undefined || EN_WISH_STARTS.has(first)) return false;
  return wordsAfter.slice(1, 4).some((w) => EN_DESCRIPTION.has(w));
}

/** A ruling verb in a one-off task ("帮我把这个函数删掉", "can you remove this line"). */
function oneOffTask(s: Sentence, act: Act): string | null {
  if ((s.hits(P.explicitDecision).length > 0)) return null;
  if (act.type === 'decision' && !CHANGE_VERB.test(act.hit.text)) return null;
  if ((s.hits(P.localObjects).length > 0)) return 'a change to one place, not a project ruling';
  if (act.type === 'ruling' && (s.hits(P.requestFrames).length > 0)) return 'a request for a task, not a ruling';
  return null;
}

/** The acts of one sentence judged; null when one of them stands. */
function judgeSentence(s: Sentence, quote: { begin: number; end: number }, kind: StatementKind, framed: boolean): GateProblem | null {
  const acts = findActs(s, kind);
  if (acts.length === 0) return problem('no_speech_act', 'no explicit speech act in the quoted sentence');
  const live = acts.filter((a) => !a.negated);
  if (live.length === 0) {
    if ((s.hits(P.undecided).length > 0)) return problem('undecided', 'the statement is undecided');
    return problem('negated', 'the speech act is negated');
  }
  if (framed) return problem('third_party', 'the sentence reports what someone else said');
  const quoteClauses = new Set<number>();
  for (let i = 0; i < s.clauses.length; i += 1) {
    const c = s.clauses[i]!;
    if (c.start < quote.end && quote.begin < c.end) quoteClauses.add(i);
  }
  live.sort((a, b) => Number(!quoteClauses.has(a.clause)) - Number(!quoteClauses.has(b.clause)) || a.hit.index - b.hit.index);
  let first: GateProblem | null = null;
  for (const act of live) {
    const p = actProblem(s, act, quoteClauses, kind);
    if (p === null) {
      if (s.hits(P.retractions, act.hit.end).some((r) => !overlaps(r, act.hit))) return problem('retracted', 'the statement is taken back');
      return null;
    }
    first ??= p;
  }
  return first;
}

/** A previous line that introduces someone else's words ("同事在群里说：", "My manager wrote:"). */
function isReportingFrame(text: string, piece: Piece): boolean {
  const raw = text.slice(piece.start, piece.end).trimEnd();
  if (!/[:：]$/u.test(raw)) return false;
  const span = new Span(fold(raw));
  if (P.reportingFrames.has(span)) return true;
  if (!P.reporting.has(span)) return false;
  return P.thirdParties.has(span) || !P.own.has(span);
}

/**
 * Judges a quoted user statement as a preference or decision. `next` is the user text of the turn right after
 * it, if any, for a retraction there. Returns null when the statement stands.
 */
export function judgeStatement(text: string, begin: number, end: number, kind: StatementKind, next: string | null = null): GateProblem | null {
  if (inCodeOrOutput(text, begin)) return problem('code_or_tool_output', 'quote sits in pasted code, a quotation, a log or tool output');
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
  if (standing === null) return best ?? problem('code_or_tool_output', 'the quote sits in pasted material');
  const index = sentences.indexOf(standing);
  const following = sentences[index + 1] ? text.slice(sentences[index + 1]!.start, sentences[index + 1]!.end) : firstSentence(next);
  if (following !== null) {
    const span = new Span(fold(following));
    if (P.retractions.find(span).some((h) => h.index <= 16)) return problem('retracted', 'the statement is taken back right after');
    if (isTagQuestion(span)) return problem('question', 'a question right after asks for agreement');
  }
  return null;
}

function firstSentence(text: string | null): string | null {
  if (text === null) return null;
  const first = sentencesOf(text)[0];
  return first ? text.slice(first.start, first.end) : null;
}

function isTagQuestion(span: Span): boolean {
  if (!QUESTION_MARK.test(span.text)) return false;
  const rest = P.tagQuestions.strip(span).replace(/[\s\p{P}\p{S}]|你|呢|吧|啊|so|then|and/gu, '');
  return P.tagQuestions.has(span) && Array.from(rest).length <= 4;
}

export type ConfirmationVerdict = { confirms: true } | { confirms: false; problem: GateProblem | null };

/**
 * A short confirmation of the proposal just before ("同意", "好", "sounds good, go with that"). The whole
 * turn is read: a hedge, a time scope, a question or a retraction anywhere in it cancels the confirmation.
 */
export function judgeConfirmation(text: string, begin: number, end: number): ConfirmationVerdict {
  if (inCodeOrOutput(text, begin)) return { confirms: false, problem: null };
  const span = new Span(fold(text));
  const hits = P.confirmations.find(span);
  const quoteAt = fold(text.slice(0, begin)).length;
  const quoteEnd = fold(text.slice(0, end)).length;
  const own = hits.filter((h) => h.index < quoteEnd && h.end > quoteAt);
  if (own.length === 0) return { confirms: false, problem: null };
  const first = own[0]!;
  const before = span.text.slice(Math.max(0, first.index - 6), first.index);
  if (P.negations.find(new Span(before)).some((n) => n.end >= before.trimEnd().length - 1)) {
    return { confirms: false, problem: problem('negated', 'confirmation: the answer is no') };
  }
  if (P.undecided.has(span) || P.speculation.has(span)) return { confirms: false, problem: problem('undecided', 'confirmation: the answer is hedged') };
  if (P.retractions.has(span)) return { confirms: false, problem: problem('retracted', 'confirmation: taken back') };
  if (P.temporary.find(span).some((t) => !hits.some((h) => overlaps(h, t)))) return { confirms: false, problem: problem('temporary', 'confirmation: only for this time') };
  if (QUESTION_MARK.test(span.text)) return { confirms: false, problem: problem('question', 'confirmation: the answer is a question') };
  const rest = P.fillers.strip(new Span(P.confirmations.strip(span))).replace(/[\s\p{P}\p{S}]/gu, '');
  return Array.from(rest).length <= 8 ? { confirms: true } : { confirms: false, problem: null };
}

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
  return covering.some((piece) => {
    const s = new Sentence(text, piece);
    // An offer of the assistant's own work binds a confirmation only when it names a project choice.
    const offers = s.hits(P.offers);
    const signals = s.hits(P.proposals).filter((h) => !offers.some((o) => overlaps(o, h)));
    if (offers.length > 0 && signals.length === 0 && s.hits(P.decision).length === 0) return false;
    return [...signals, ...(s.hits(P.decision).length > 0 ? offers : [])].some((h) => {
      const clause = s.clauseOf(h.index);
      return !insideRanges(s.quoted, h.index, h.end) && !isNegated(s, h, clause);
    });
  });
}

/**
 * M-5.6: discussion context rests on what the user said, and a statement of a code fact is not discussion.
 * Takes the located user quotes; returns null when one of them is discussion.
 */
export function judgeDiscussion(userQuotes: readonly { text: string; begin: number; end: number }[]): GateProblem | null {
  if (userQuotes.length === 0) return problem('assistant_only', 'discussion context needs a quote of the user');
  const spoken = userQuotes.filter((q) => !inCodeOrOutput(q.text, q.begin));
  if (spoken.length === 0) return problem('code_or_tool_output', 'every user quote sits in pasted code or output');
  for (const q of spoken) {
    const sentences = sentencesCovering(sentencesOf(q.text), q.begin, q.end);
    const isFact = sentences.every((piece) => {
      const s = new Sentence(q.text, piece);
      const fact = s.hits(P.codeFacts).length > 0 || ZH_FACT.test(s.span.text.trim()) || EN_FACT.test(s.span.text.trim());
      return fact && !(s.hits(P.discussion).length > 0) && !QUESTION_MARK.test(s.span.text);
    });
    if (!isFact) return null;
  }
  return problem('code_fact', 'a statement of a code fact is not discussion context');
}

/** Marker words removed from a quote before the content-anchor check, so a marker alone never anchors. */
const ANCHOR_STRIP = new Phrases(
  [L.STANDING, L.PREFERENCE_VERBS, L.DECISION, L.RULING_LABELS, L.TEMPORARY, L.HYPOTHETICAL, L.CONDITIONAL_OPENINGS,
    L.EXAMPLE_OPENINGS, L.UNDECIDED, L.CONFIRMATIONS, L.PROPOSALS, L.RULING_VERBS].reduce<{ zh: string[]; en: string[] }>(
    (all, words) => {
      // A gap pattern ("每次…都") strips its fixed parts only: the gap is what the statement is about.
      for (const e of words.zh) all.zh.push(...e.split(/[…⋯]/u).map((p) => p.trim()).filter((p) => p.length > 0));
      for (const e of words.en) all.en.push(...e.split(/[…⋯]/u).map((p) => p.trim()).filter((p) => p.length > 0));
      return all;
    },
    { zh: [], en: [] },
  ),
);

/** The quote without its speech-act words: what the statement is about. */
export function stripMarkers(text: string): string {
  return ANCHOR_STRIP.strip(new Span(fold(text)));
}
