import { describesBehaviour, durativeState, oneOffTask } from './description.js';
import { grammarActs } from './grammar.js';
import { exclamativeEnd, findActsOverlap, isAttributive, isBareClause, isBareOf, masked, questionSignal } from './mood.js';
import {
  anyOf,
  HEDGE_NEGATION,
  LABEL_LEAD,
  POSTPONE_END,
  ACT_CONDITION_END,
  ACT_CONDITION_FOLLOWER,
  AFTER_EVENT,
  CONSEQUENCE,
  EN_RULING_LEAD,
  FUTURE_ADVERB,
  HAN,
  NOT_NEGATION,
  P,
  PROHIBITIVE,
  RULE_WORD,
  SARCASM_OPENER,
  NOT_YET_AGREED,
  OTHER_PROJECT_NP,
  EN_SELF_FUTURE,
  EN_WHETHER,
  ANAPHORIC_OPENING,
  HOLD_CLAUSE,
  REPEATED_ASSENT,
  RHETORICAL_CLAUSE_EN,
  RHETORICAL_CLAUSE_ZH,
  QUESTION_MARK,
} from './phrases.js';
import { type Act, ofAct, opensClause, overlaps, Sentence, wordsOf } from './sentence.js';
import { shapeEvidence } from './shape.js';
import { thirdParty } from './speaker.js';
import { insideRanges } from './text-types.js';
import { type GateProblem, problem, type StatementKind } from './verdict.js';
import * as L from './lexicon.js';
import { SHAPE } from './lexicon.js';
import { type Hit, matchesOf, Span } from './words.js';

/** The speech acts of a sentence and why each does or does not stand (M-5.3, M-5.6). */

const MENTION = /^[\sa-z]{0,6}["”']?\s*(?:这个词|这几个字|这个短语|这句话|一词|这个说法|is a phrase|as a word|the phrase|the word)/u;

export function findActs(s: Sentence, kind: StatementKind): Act[] {
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
      // "from now on 这个词在 i18n 文件里…": the marker mentioned as a word is not used.
      if (MENTION.test(s.span.text.slice(hit.end, hit.end + 12))) continue;
      if (acts.some((a) => a.hit.index === hit.index && a.hit.end === hit.end)) continue;
      const clause = s.clauseOf(hit.index);
      acts.push({ type, hit, clause, negated: isNegated(s, hit, clause), quoted: insideRanges(s.quoted, hit.index, hit.end) });
    }
  };
  const label = rulingLabel(s);
  if (label) add('label', [label]);
  if (kind === 'user_preference') {
    add('standing', s.hits(P.standing));
    // "I want the conclusion first" is a wish; "I want to see the logs" asks for something now.
    add(
      'preference',
      s.hits(P.preferenceVerbs).filter((h) => !(h.text === 'i want' && /^\s+to\b/u.test(s.span.text.slice(h.end)))),
    );
  } else {
    add('decision', s.hits(P.decision));
    add('ruling', s.hits(P.rulings));
    // "Hilt is our DI for the app, settled last sprint", "…，上周就定了": a later clause that is only a word of
    // settling (and when) says the statement before it was decided.
    for (let i = 1; i < s.clauses.length; i += 1) {
      const m = SETTLED_TAIL.exec(s.clauseText(i));
      const at = s.clauses[i]!.start + (m?.[1]?.length ?? 0);
      if (m) add('decision', [{ index: at, end: at + m[2]!.length, text: m[2]! }]);
    }
    // A standing pattern about answers or the assistant is a preference, never a project decision.
    if (!(s.hits(P.aboutAnswers).length > 0)) add('standing', s.hits(P.standing));
  }
  // Rules by clause structure (grammar.ts): a general prohibition, a rule under a condition, a choice against
  // its alternative, an instruction about answers.
  add('rule', grammarActs(s));
  return acts;
}

const SETTLED_TAIL = new RegExp(
  String.raw`^([\s\p{P}]*(?:(?:it|that|this)\s+was\s+|(?:这个|这是|这条)?(?:上周|上个月|上次|之前|早就|已经)?就?)?)` +
    String.raw`(settled|decided|agreed on|定了|定的|定好了|拍板了)(?:\s+(?:last|this|at|in)\s+[a-z]+(?:\s+[a-z]+)?)?[\s\p{P}]*$`,
  'u',
);

/** With no act by marker or pattern, the strongest act the shape of a quoted clause shows (shape.ts), or null. */
function shapeAct(s: Sentence, quoteClauses: ReadonlySet<number>, kind: StatementKind): Act | null {
  // How the assistant answers is a preference, never a project decision.
  if (kind === 'project_decision' && s.hits(P.aboutAnswers).length > 0) return null;
  const found = shapeEvidence(s, s.text.slice(s.piece.start, s.piece.end), quoteClauses, kind);
  if (!found) return null;
  return {
    type: 'shape',
    hit: found.hit,
    clause: found.clause,
    negated: found.mood === 'prohibitive' ? false : isNegated(s, found.hit, found.clause),
    quoted: insideRanges(s.quoted, found.hit.index, found.hit.end),
    weak: !found.strong,
  };
}

/** "Decision: …", "**结论**：…" at the start of the sentence. */
export function rulingLabel(s: Sentence): Hit | null {
  // At the start of the sentence or of any clause ("讨论了一下午，结论：…").
  for (const c of s.clauses) {
    const text = s.span.text.slice(c.start);
    const lead = c.start + LABEL_LEAD.exec(text)![0].length;
    // "结论是…": the segmenter glues the copula to the label ("结论是|这个"), so the pair is read as one.
    const glued = ZH_LABEL_COPULA.exec(s.span.text.slice(lead, c.end));
    if (glued && ruled(s.span.text.slice(lead + glued[0].length, c.end)))
      return { index: lead, end: lead + glued[1]!.length, text: glued[1]! };
    // "Reversing what we picked last week: …", "推翻上次定的：…": a lead revising an earlier choice labels the new one.
    const revision = revisionLead(s, c, lead);
    if (revision) return revision;
    const hit = P.labels.at(s.span, lead);
    if (!hit || hit.end > lead + 24) continue;
    // "Decision:", "**结论**：", "Rule of thumb for this repo:": a few words may qualify the label before its colon.
    if (/^[^:：。.!?！？\n]{0,32}?[*_]*(?:[:：]|\s[—–-]{1,2}\s)/u.test(s.span.text.slice(hit.end))) return hit;
    // "结论是这个项目的宽表都按 dt 分区", "the decision is that …": the label as the subject of a copula whose
    // complement is a clause of its own (not "结论是对的").
    const copula = LABEL_COPULA.exec(s.span.text.slice(hit.end, c.end));
    if (copula && ruled(s.span.text.slice(hit.end + copula[0].length, c.end))) return hit;
  }
  return null;
}

/**
 * A clause that ends on a colon or a semicolon ("Plan changed:", "We're reverting the X decision;"), with a verb of
 * revising and a word naming the choice it revises, in either order: the verb, or null.
 */
function revisionLead(s: Sentence, c: { start: number; end: number }, lead: number): Hit | null {
  const clause = s.span.text.slice(lead, c.end).trimEnd();
  const colon = clause.length - 1;
  if (colon < 0 || colon > 48 || !/[:：;；]/u.test(clause[colon]!)) return null;
  // (A question, "should we revisit the plan;", revises nothing.)
  if (QUESTION_MARK.test(clause)) return null;
  const verb = P.revisionVerbs.at(s.span, lead) ?? s.hits(P.revisionVerbs, lead, lead + colon)[0];
  if (!verb || !P.revisedChoices.has(s.span, lead, lead + colon)) return null;
  return verb;
}

const PROJECT_NOUN = new RegExp(
  anyOf([...L.OTHER_PROJECT_NP.nouns.zh, ...L.OTHER_PROJECT_NP.nouns.en, ...L.OTHER_PROJECT_NP.ownWork]),
  'u',
);
/** A comparison ("像", "跟", "like") right before the offset: what follows is what the statement is compared to. */
function comparedTo(text: string, index: number): boolean {
  const from = Math.max(0, index - 5);
  const lead = text.slice(from, index).trimEnd();
  // (It may take in the preposition opening what follows: "as in the mobile repo".)
  return P.comparisons.find(new Span(text.slice(from, index + 3))).some((c) => c.index < lead.length && c.end >= lead.length - 1);
}

const ADVICE_MODALS = new Set(L.ADVICE_MODALS);
const RHETORICAL_NEGATION = /不是[^，,。?？]{1,30}?[吗么][\s\p{P}]*$/u;
const PS = L.PROJECT_SWITCH;
const PROJECT_SWITCH = new RegExp(
  `(?:${PS.subjects.zh.join('|')})[^，,。]{0,6}?(?:${PS.verbs.zh.join('|')})` +
    `|(?<![\\p{L}])(?:${PS.subjects.en.join('|')})\\s+(?:ever\\s+|someday\\s+|one day\\s+)?(?:${PS.verbs.en.join('|')})(?![\\p{L}])`,
  'u',
);
const POINTING_ONLY = new RegExp(
  `^\\s*(?:是|就是|都是)?\\s*(?:${[...L.POINTING_PREDICATES.zh, ...L.POINTING_PREDICATES.en].join('|')})[了的啊呀吧嘛]*[\\s\\p{P}\\p{S}]*$`,
  'u',
);
const OTHERNESS_LEAD = new RegExp(`^(?:${L.OTHER_PROJECT_NP.zhOthers.join('|')})`, 'u');
const ZH_LABEL_COPULA = new RegExp(
  `^(${L.RULING_LABELS.zh.join('|')})(?:${SHAPE.labelCopulas.filter((x) => HAN.test(x)).join('|')})(?!否|不是)`,
  'u',
);
const LABEL_COPULA = new RegExp(`^[*_]*\\s*(?:${SHAPE.labelCopulas.join('|')})(?![\\p{L}])\\s*`, 'u');
/**
 * The complement of a ruling label's copula is a ruling: a clause of its own, or a setting and its value ("结论是
 * minSdk 26", "the decision is Node 20") — not a judgement ("结论是对的").
 */
function ruled(complement: string): boolean {
  return contentLength(complement) >= 6 || SETTING_VALUE.test(complement);
}
const SETTING_VALUE = /^\s*[a-z][\w.-]*\s*(?:[:=]\s*)?v?\d[\w.]*[\s\p{P}]*$/u;
/** Letters and digits of a text, a Latin word counting as two. */
function contentLength(text: string): number {
  return Array.from(text.replace(/[a-z0-9][\w.-]*/gu, 'xx').replace(/[\s\p{P}\p{S}]/gu, '')).length;
}

const ZH_PROHIBITIVE_NEG = /^(?:千万别|千万不要|不要|别|不许|不准|禁止|严禁)[都也再就\s]*$/u;
/** A negation a few characters (Chinese) or up to three words (English) before the act, in its clause. */
export function isNegated(s: Sentence, hit: Hit, clause: number): boolean {
  if (PROHIBITIVE.test(hit.text)) return false;
  const from = Math.max(s.clauses[clause]!.start, hit.index - 24);
  for (const neg of [...s.hits(P.negations, from, hit.index), ...s.hits(P.longNegations, from, hit.index)]) {
    if (neg.end > hit.index) continue;
    if (NOT_NEGATION.has(s.span.text.slice(neg.index, neg.index + 2))) continue;
    // "要不以后都用 ruff": the 不 of a suggestion's opener negates nothing.
    if (s.hits(P.suggestions).some((o) => overlaps(o, neg) && s.span.text[o.end] !== '要')) continue;
    // "最终不上 Kubernetes 了", "以后都不用 X 了": 不…了 says "no longer" — the negation is the decision itself.
    const rest = s.span.text.slice(hit.end, s.clauses[clause]!.end).replace(/[\s\p{P}]+$/u, '');
    if (neg.text === '不' && rest.endsWith('了')) continue;
    const between = s.span.text.slice(neg.end, hit.index);
    // "这些 1.22+ 的东西都别用": a prohibitive right before the verb makes the act a prohibition, not a negated one.
    if (ZH_PROHIBITIVE_NEG.test(s.span.text.slice(neg.index, hit.index))) continue;
    if (HAN.test(neg.text)) {
      if (Array.from(between.trim()).length <= 4) return true;
    } else if (wordsOf(between).length <= 3 && !/[,.;:!?，。；：！？]/u.test(between)) {
      return true;
    }
  }
  return false;
}

/** Why one act does not stand as the user's own standing wish or ruling, or null when it does. */
export function actProblem(s: Sentence, act: Act, quoteClauses: ReadonlySet<number>, kind: StatementKind): GateProblem | null {
  const text = s.span.text;
  const clause = s.clauses[act.clause]!;
  if (act.quoted) return problem('quoted_speech', 'the speech act stands inside quotation marks');
  // A rule found by structure alone is weaker evidence: anything in its sentence that scopes or hedges it counts.
  if (act.type === 'rule' || act.type === 'shape') {
    // A later clause with a subject of its own ("…，老的先不动") scopes that subject, not the rule.
    const ownLater = (h: Hit): boolean => {
      const i = s.clauseOf(h.index);
      if (i <= act.clause || isBareClause(s, i) || isBareOf(s, i, P.undecided) || isBareOf(s, i, P.speculation)) return false;
      // Its subject stands before the scope word ("老的先不动"); "这次提交前要清干净" opens with the scope itself.
      const before = s.span.text.slice(s.clauses[i]!.start, h.index).replace(/[\s\p{P}]|但|而|那|就/gu, '');
      return Array.from(before).length >= 2;
    };
    // A hedge inside a condition ("when you're unsure about an API, …") or in what a verb of telling embeds
    // ("先跟我说你打算改哪几个文件") is what the rule is about.
    const content = (h: Hit): boolean => s.isCondition(s.clauseOf(h.index)) || embedded(s, h);
    const scoped = [
      ...s.hits(P.temporary),
      ...[...s.hits(P.undecided), ...s.hits(P.hypothetical), ...s.hits(P.speculation)].filter((h) => !content(h)),
    ].find((h) => !masked(s, h) && !ownLater(h));
    const temporary = scoped !== undefined && s.hits(P.temporary).includes(scoped);
    // "would be nice if you could stop …, is that possible?": a hedged request to the assistant is held.
    if (scoped && !temporary && s.hits(P.politeRequests).length > 0 && questionSignal(s, act) !== null)
      return problem('polite_request', `a standing wish asked as a question, hedged ("${scoped.text}")`);
    if (scoped) return problem(temporary ? 'temporary' : 'undecided', `the rule is scoped or hedged ("${scoped.text}")`);
  }

  // Who speaks, about which project.
  for (const other of s.hits(P.otherProjects, 0, clause.end)) {
    if (other.index >= act.hit.index && s.clauseOf(other.index) !== act.clause) continue;
    if (comparedTo(text, other.index)) continue;
    return problem('other_project', 'the statement is about another or an earlier project');
  }
  // "For a hobby project of mine I always …": a project its determiner says is not this one, before the act or
  // in its clause — unless a condition makes it any project of a kind ("when I start a new project, …").
  const named = PROJECT_NOUN.test(text) ? OTHER_PROJECT_NP.exec(text.slice(0, clause.end)) : null;
  // ("在另一个 Nx repo 里…": a determiner of otherness names that one other project, condition or not.)
  const general = named !== null && s.isCondition(s.clauseOf(named.index)) && !OTHERNESS_LEAD.test(named[0]);
  // "like in the genomics project, we'll …": a project a comparison names is the model, not the subject.
  const compared = named !== null && comparedTo(text, named.index);
  if (named && !general && !compared && (named.index < act.hit.index || s.clauseOf(named.index) === act.clause))
    return problem('other_project', 'the statement is about another project of the user');
  // "另一个团队的 analytics 服务默认…", "another team's gateway always …": a thing another group owns is theirs —
  // unless the sentence takes it on for this project ("…，我们也照这个来").
  const owner = s.hits(P.otherOwners, clause.start, act.hit.index)[0];
  // (The taking on points back at their thing: "we follow whatever legal gives us" follows someone else.)
  const takesOn = s.hits(P.adoptions).some((h) => h.index > act.hit.index && POINTS_BACK.test(s.clauseText(s.clauseOf(h.index))));
  if (owner && !takesOn) return problem('other_project', 'the thing belongs to another group, not this project');
  const speaker = thirdParty(s, act);
  // "架构组定了，以后…统一走 gRPC，我们这个项目也得跟": a party's rule this project takes on is ours. A rule reported
  // from someone else ("他说以后所有接口都要…") may be one the user relays: held for the user. A decision of theirs
  // is theirs.
  if (speaker && !s.hits(P.adoptions).some((h) => h.index > act.hit.index)) {
    const relayed = act.type !== 'decision';
    return problem('third_party', speaker, relayed ? 'suggest' : 'refuse');
  }

  // "…, though I disagree": the user states a rule to disagree with it.
  if (s.hits(P.disagreement, act.hit.end).length > 0) return problem('negated', 'the user disagrees with the rule');
  // "Let's use Postgres for this prototype": a choice for one thing in particular, not for the project.
  if (act.type === 'decision' && forOneThing(text.slice(act.hit.end, clause.end)))
    return problem('temporary', 'a choice for one thing in particular', 'suggest');
  // "From now on I'll be working from the Berlin office": what the user will do, not a wish.
  if (kind === 'user_preference' && act.type === 'standing' && EN_SELF_FUTURE.test(text.slice(act.hit.end, clause.end)))
    return problem('description', 'the user says what they will do', 'suggest');

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

  // "always double check the columns in this particular query": a standing marker scoped to one thing.
  // (A marker after a subject describes it: "Jest always hangs on this test".)
  if (
    act.type === 'standing' &&
    opensClause(s, act.hit.index) &&
    !HAN.test(act.hit.text) &&
    inOneThing(text.slice(act.hit.end, clause.end))
  )
    return problem('temporary', 'a standing act scoped to one thing in particular', 'suggest');
  // Mood: hypothetical, question, example, undecided, speculation.
  // "If the benchmark looks good, we'll adopt it": a decision under a condition is not made yet (a rule under one is).
  if (act.type === 'decision') {
    for (let i = 0; i < act.clause; i += 1) {
      const c = s.clauses[i]!;
      const opening = P.conditional.first(s.span, c.start, c.end);
      if (opening && /^[\s\p{P}]*$/u.test(text.slice(c.start, opening.index)))
        return problem('hypothetical', 'the decision waits on a condition');
    }
  }
  // "如果哪天我们换成 Nx 了，记得…", "if we ever move to Bazel, …": a rule under a condition that the project switches
  // to another choice is for a setup not chosen yet.
  for (let i = 0; i < act.clause; i += 1) {
    if (s.isCondition(i) && PROJECT_SWITCH.test(s.clauseText(i)))
      return problem('hypothetical', 'the rule waits on the project switching to another choice');
  }
  // "要不以后都交给 ruff 吧？", "how about we tag every release by default?": a standing act proposed for agreement.
  if (suggestionMood(s, act)) return problem('polite_request', 'a standing act proposed in the mood of a suggestion');
  const asked = questionSignal(s, act);
  // "以后能不能都用中文回答？", "Could you always answer in English?": a standing wish asked politely is held for the user.
  // (A clause opened by a modal of asking and closed by 吗 is one however long: "可以以后…而不是…吗".)
  const polite =
    asked !== null && !asked.includes('wh-') && (s.hits(P.politeRequests).length > 0 || POLITE_CLAUSE_ZH.test(s.clauseText(act.clause)));
  const question = polite ? null : asked;
  if (question && !question.includes('wh-')) return problem('question', question);
  if (ACT_CONDITION_FOLLOWER.test(text.slice(act.hit.end, clause.end)))
    return problem('hypothetical', 'the act is the condition of a request');
  if (ACT_CONDITION_END.test(text.slice(act.hit.end, clause.end)))
    return problem('hypothetical', 'the act stands inside a condition (…的话)');
  // ("would it be possible to …?": the "would" of a polite request is its politeness.)
  const politeWord = (h: Hit): boolean => polite && s.hits(P.politeRequests).some((w) => overlaps(w, h));
  if (
    s
      .hits(P.hypothetical)
      .some((h) => !ofAct(h, act) && !masked(s, h) && !s.hits(P.weakeners).some((w) => overlaps(w, h)) && !politeWord(h))
  )
    return problem('hypothetical', 'the statement is hypothetical');
  const clauseText = text.slice(clause.start, clause.end);
  const lead = clauseText.length - clauseText.trimStart().length;
  const conditional = P.conditional.first(s.span, clause.start + lead, clause.end);
  // "if possible keep answers short": the condition is a weakener's own word (held as weakened below).
  const weakenerWord = (h: Hit): boolean => s.hits(P.weakeners).some((w) => w.index <= h.index && w.end >= h.end);
  if (conditional && !weakenerWord(conditional) && conditional.index === clause.start + lead && conditional.end <= act.hit.index) {
    if (!CONSEQUENCE.test(text.slice(conditional.end, act.hit.index))) return problem('hypothetical', 'the act stands inside a condition');
  }
  if (question) return problem('question', question);
  // "we'll discuss whether to adopt Nx": the act is the open question of a whether-complement.
  if (!HAN.test(act.hit.text) && EN_WHETHER.test(text.slice(clause.start, act.hit.index)))
    return problem('undecided', 'the act stands in an open question (whether …)');
  for (const ex of s.hits(P.example, 0, act.hit.index)) {
    if (opensClause(s, ex.index)) return problem('example', 'the statement is an example');
  }
  for (const u of s.hits(P.undecided)) {
    if (ofAct(u, act) || masked(s, u) || s.isCondition(s.clauseOf(u.index))) continue;
    if (HEDGE_NEGATION.test(text.slice(Math.max(0, u.index - 10), u.index))) continue;
    if (embedded(s, u)) continue;
    // A later clause about something else ("读写分离先上，分库分表以后再说") leaves this act standing; a bare one
    // ("…，还没想好") hedges the whole sentence.
    const uc = s.clauseOf(u.index);
    // "Decision: TBD between A and B", "结论：待定": the clause right after a ruling label is its ruling, so a word
    // of not deciding there says no ruling is made.
    const labelled = act.type === 'label' && uc === act.clause + 1 && opensClause(s, u.index);
    if (uc > act.clause && !labelled && !isBareOf(s, uc, P.undecided)) continue;
    // "could you maybe always …?": a hedge inside a polite request is its politeness; the wish is held.
    if (polite) return problem('polite_request', 'a standing wish asked as a question, hedged');
    return problem('undecided', 'the statement is undecided');
  }
  // "…的时候再说", "…，回头再看": a clause that ends by postponing, the act's own or a bare one after it.
  for (let i = act.clause; i < s.clauses.length; i += 1) {
    const c = s.clauseText(i);
    if (!POSTPONE_END.test(c)) continue;
    if (
      i === act.clause ||
      Array.from(c.replace(POSTPONE_END, '').replace(/[\s\p{P}]|回头|以后|之后|后面|下次|改天|到时候/gu, '')).length <= 2
    ) {
      return problem('undecided', 'the statement is put off');
    }
  }
  // "…，这个先不急，等下个版本再说": a later clause pointing back at the statement holds it or puts it off.
  for (let i = act.clause + 1; i < s.clauses.length; i += 1) {
    if (!ANAPHORIC_OPENING.test(s.clauseText(i))) continue;
    const rest = Array.from({ length: s.clauses.length - i }, (_, k) =>
      s
        .clauseText(i + k)
        .replace(/[\s\p{P}]+$/u, '')
        .trim(),
    );
    if (rest.some((c) => HOLD_CLAUSE.test(c) || POSTPONE_END.test(c)))
      return problem('undecided', 'a later clause puts the statement off', 'suggest');
  }
  // "…，先试一周看看": what is tried for a while is provisional — held for the user.
  if (s.hits(P.trial).some((h) => s.clauseOf(h.index) >= act.clause)) return problem('temporary', 'a trial for a while', 'suggest');
  // "…，但团队还没讨论", "…, but the team hasn't discussed it yet": not agreed on yet — held for the user.
  for (let i = act.clause + 1; i < s.clauses.length; i += 1)
    if (NOT_YET_AGREED.test(s.clauseText(i))) return problem('undecided', 'a later clause says it is not agreed yet', 'suggest');
  // A hedge tagged on after the act (", I guess", "，估计吧") covers the whole sentence.
  for (const sp of s.hits(P.speculation, clause.end)) {
    const c = s.clauses[s.clauseOf(sp.index)]!;
    const rest = P.speculation.strip(new Span(text.slice(c.start, c.end)));
    if (wordsOf(rest).length <= 2 && Array.from(rest.replace(/[\s\p{P}]/gu, '')).length <= 6)
      return problem('speculation', 'the statement is hedged', hedgedVerdict(s, act));
  }
  for (const sp of s.hits(P.speculation, 0, clause.end)) {
    if (ofAct(sp, act) || masked(s, sp) || s.isCondition(s.clauseOf(sp.index))) continue;
    if (isAttributive(text, sp)) continue;
    return problem('speculation', 'the statement is speculation', hedgedVerdict(s, act));
  }

  // "我们以后会有一个新的数据平台": 以后 with 会 and no ruling is a prediction.
  // (A 会 in what a verb of telling embeds — "顺便说下 goroutine 会不会泄漏" — is the content asked for.)
  const predicts = matchesOf(/会(?!议|话|不会)/gu, text.slice(act.hit.end, clause.end)).some((m) => {
    const at = act.hit.end + m.index;
    return !embedded(s, { index: at, end: at + 1, text: '会' });
  });
  if (
    act.type === 'standing' &&
    FUTURE_ADVERB.has(act.hit.text) &&
    predicts &&
    !s.hits(P.decision).length &&
    !s.hits(P.rulings).length &&
    !RULE_WORD.test(text.slice(act.hit.end, clause.end))
  ) {
    return problem('speculation', 'a prediction, not a wish');
  }
  // "每次 range 出来的顺序都可能不一样": a "每次…都" pattern followed by a modal of prediction or a state (会, 可能,
  // 不一样) says what happens, not what should.
  // ("最好每个例子都能在 CPU 上跑通": a weakener or modal before the pattern makes the 能 what is wished for.)
  const wished = (): boolean =>
    [...s.hits(P.weakeners), ...s.hits(P.deontic)].some((h) => h.index >= clause.start && h.end <= act.hit.index);
  if (act.type === 'standing' && act.hit.gap && ZH_PREDICTION_AFTER.test(text.slice(act.hit.end, clause.end)) && !wished()) {
    return problem('description', 'what happens each time, not a wish');
  }
  // "每次部署都要手动改配置，太麻烦了": a habit followed by a complaint is the pain described, not a rule.
  // (A wish for the future with its reason — "以后回答短一点，太长了翻不动" — is not a habit described.)
  if (act.type === 'standing' && !FUTURE_ADVERB.has(act.hit.text) && s.hits(P.complaints, clause.end).length > 0) {
    return problem('description', 'a complaint about how things are, not a wish');
  }
  // "每次都这样，你又…", "总是这样": a habit whose predicate only points at what happened is a complaint, not a wish
  // ("以后都这样" asks for it from now on).
  const ahead = [...FUTURE_ADVERB].some((f) => act.hit.text.startsWith(f));
  if (act.type === 'standing' && !ahead && POINTING_ONLY.test(text.slice(act.hit.end, clause.end)))
    return problem('description', 'a habit whose predicate only points at what happened');
  // What the act is: a description of behaviour, a one-off task.
  if (act.type === 'standing' && s.hits(P.descriptiveMarkers).some((d) => d.index === act.hit.index) && describesBehaviour(s, act)) {
    return problem('description', 'the sentence describes how software behaves, not a wish');
  }
  if (act.type === 'standing' && s.hits(P.descriptiveMarkers).some((d) => d.index === act.hit.index) && durativeState(s, act)) {
    return problem('description', 'a state described with the durative 着, or a wish', 'suggest');
  }
  // "oh sure, open every reply with …, exactly what I need /s": an explicit marker of sarcasm says the sentence means
  // the other way, whatever shape its request has.
  if (s.hits(P.sarcasm).length > 0) return problem('sarcasm', 'the sentence is marked as sarcasm');
  if (act.type === 'ruling' || act.type === 'decision' || act.type === 'rule' || act.type === 'standing' || act.type === 'shape') {
    const task = oneOffTask(s, act);
    // Under a condition ("如果要改的超过 100 行，先给我方案"), a request frame is part of the rule.
    const conditioned =
      (act.type === 'rule' || act.type === 'shape') && Array.from({ length: act.clause }, (_, k) => s.isCondition(k)).some(Boolean);
    if (task && !(conditioned && task.verdict === 'suggest')) return problem('one_off_request', task.detail, task.verdict);
  }
  if (kind === 'project_decision' && act.type === 'ruling' && P.imperativeRulings.has(new Span(act.hit.text))) {
    const before = text.slice(clause.start, act.hit.index);
    if (!EN_RULING_LEAD.test(before)) {
      return problem('no_speech_act', 'the verb is not an imperative ruling');
    }
  }
  // The act stands; weak evidence around it holds it for the user (M-5.7).
  if (polite) return problem('polite_request', 'a standing wish asked as a question');
  // A weakener in a later clause of its own ("别再用 apply 了，能向量化就向量化") weakens that clause, not an act whose
  // clause says what it wants; a bare one after it (", if possible") weakens the whole sentence.
  const actClause = s.clauses[act.clause]!;
  const ownContent = wordsOf(text.slice(actClause.start, act.hit.index) + ' ' + text.slice(act.hit.end, actClause.end)).length >= 2;
  const weak = s
    .hits(P.weakeners)
    .find(
      (h) =>
        !ofAct(h, act) &&
        !masked(s, h) &&
        (!ownContent || s.clauseOf(h.index) <= act.clause || isBareOf(s, s.clauseOf(h.index), P.weakeners)),
    );
  if (weak) return problem('weakened', `the wish is weakened ("${weak.text}")`);
  // A marker of sarcasm, or two weak cues (a concession opening the sentence counts as one).
  const cues =
    s.hits(P.sarcasmCues).length +
    Number(SARCASM_OPENER.test(s.span.text) || REPEATED_ASSENT.test(s.span.text)) +
    Number(exclamativeEnd(s.span.text)) +
    Number(rhetoricalAfter(s, act.clause));
  if (s.hits(P.sarcasm).length > 0 || cues >= 2) return problem('sarcasm', 'the sentence reads as sarcasm');
  return null;
}

// A clause that points back at another group's thing ("我们也照这个来", "we do the same").
const POINTS_BACK = /也|同样|照|一样|这个|那个|\b(?:too|as well|the same|that|theirs|it)\b/u;
// (A topic may come before the modal — "后面给 Go 代码可以都…吗" — and a dot inside a name, ".sel", ends nothing.)
const POLITE_WORD = String.raw`(?:[^，,。.!！?？]|\.(?=[\p{L}\p{N}]))`;
const POLITE_CLAUSE_ZH = new RegExp(
  String.raw`^[\s\p{P}]*(?:那|请问|请)?(?:(?!吗)${POLITE_WORD}){0,16}?你?(?:可以|能不能|可不可以|能否|可否|能)${POLITE_WORD}+[吗么][\s\p{P}]*$`,
  'u',
);

/** A clause after the act's that asks a question wanting no answer ("…, who's going to notice"). */
function rhetoricalAfter(s: Sentence, clause: number): boolean {
  for (let i = clause + 1; i < s.clauses.length; i += 1) {
    const c = s.clauseText(i);
    if (RHETORICAL_CLAUSE_EN.test(c) || (!QUESTION_MARK.test(s.span.text) && RHETORICAL_CLAUSE_ZH.test(c))) return true;
  }
  return false;
}

/**
 * The act's sentence opens with a suggestion ("要不…", "how about we …", "mind adding …?"), after at most a
 * subject of ours or a lead word: a proposal of the user's waiting for agreement.
 */
function suggestionMood(s: Sentence, act: Act): boolean {
  return s.hits(P.suggestions, 0, Math.max(act.hit.index, s.clauses[act.clause]!.end)).some((o) => {
    // ("要不要…" is an A-not-A question.)
    if (s.span.text[o.end] === '要') return false;
    const before = s.span.text.slice(s.clauses[s.clauseOf(o.index)]!.start, o.index);
    return SUGGESTION_LEAD.test(before);
  });
}
const SUGGESTION_LEAD = new RegExp(
  `^[\\s\\p{P}]*(?:(?:${[...L.GRAMMAR.ownConventionSubjects, ...L.GRAMMAR.enClauseOpeners, '这个项目', '那'].join('|')})\\s*)*$`,
  'u',
);

const EN_PROJECT_NOUNS = new Set(SHAPE.enProjectNouns);
/** "for this prototype", "for that script": a scope of one thing that is not the project ("for this repo"). */
/** "in this particular query", "for that file": a scope of one thing that is not the project ("in this repo"). */
function inOneThing(text: string): boolean {
  const noun = /\b(?:in|for|on)\s+(?:this|that)\s+(?:(?:particular|specific|one|single)\s+)?([a-z][\w-]*)\b/u.exec(text);
  return noun !== null && !EN_PROJECT_NOUNS.has(noun[1]!);
}
function forOneThing(text: string): boolean {
  const noun = /\bfor\s+(?:this|that)\s+([a-z][\w-]*)\b/u.exec(text);
  return noun !== null && !EN_PROJECT_NOUNS.has(noun[1]!);
}

/** True when a verb of telling or checking stands before the word in its clause: the word is in what it embeds. */
function embedded(s: Sentence, h: Hit): boolean {
  const c = s.clauses[s.clauseOf(h.index)]!;
  // ("写代码的人会越来越少": a verb in a relative clause before 的 embeds nothing.)
  return s.hits(P.embedding, c.start, h.index).some((e) => e.end <= h.index && !s.span.text.slice(e.end, h.index).includes('的'));
}

/**
 * A speaker's hedge on a rule ("I think we should probably always pin …", "我觉得以后都应该…") leaves a standing
 * wish the user may mean: held for the user. A hedge on anything else (a guess, a forecast) is refused.
 */
function hedgedVerdict(s: Sentence, act: Act): 'suggest' | 'refuse' {
  const c = s.clauses[act.clause]!;
  const rule = s.hits(P.deontic, c.start, c.end).length > 0 || act.type === 'shape' || act.type === 'rule';
  return rule && act.type !== 'decision' ? 'suggest' : 'refuse';
}
const ZH_PREDICTION_AFTER = new RegExp(`^\\s*(?:${[...SHAPE.zhPredictive, '不一样', '一样', '不同', '很', '挺'].join('|')})`, 'u');

/**
 * "…统一用 pnpm，yarn 彻底不用了", "Lerna 不用了，改为 Turborepo": a retraction with a topic of its own before it in its
 * clause — a name no other clause of the sentence has, not a word pointing back — drops that other thing; it is
 * part of the decision, not a retraction of it ("限流这个算了" after a rule about 限流 still takes it back).
 */
function dropsAnother(s: Sentence, r: Hit): boolean {
  const i = s.clauseOf(r.index);
  const c = s.clauses[i]!;
  const topic = s.span.text.slice(c.start, r.index).replace(TOPIC_FILLERS, ' ');
  const names = [...(topic.match(/[a-z][\w.+#-]*|\p{Script=Han}{2,}/gu) ?? [])];
  if (names.length === 0) return false;
  const others = s.clauses.map((_, k) => (k === i ? '' : s.clauseText(k))).join(' ');
  // A Chinese name is read by its first two characters ("限流的事" points back at "限流").
  return names.every((n) => !others.includes(/^\p{Script=Han}/u.test(n) ? n.slice(0, 2) : n));
}
const TOPIC_FILLERS = new RegExp(`[\\s\\p{P}]|${[...L.ZH_ANAPHORS, ...SHAPE.anaphoric, ...L.TOPIC_ADVERBS].join('|')}`, 'gu');

/** The acts of one sentence judged; null when one of them stands. */
export function judgeSentence(
  s: Sentence,
  quote: { begin: number; end: number },
  kind: StatementKind,
  framed: boolean,
): GateProblem | null {
  const quoteClauses = new Set<number>();
  for (let i = 0; i < s.clauses.length; i += 1) {
    const c = s.clauses[i]!;
    if (c.start < quote.end && quote.begin < c.end) quoteClauses.add(i);
  }
  const acts = findActs(s, kind);
  if (acts.length === 0) {
    const shaped = shapeAct(s, quoteClauses, kind);
    if (shaped) acts.push(shaped);
  }
  if (acts.length === 0) {
    // "这次回答用英文": a request scoped to this answer, and nothing standing.
    if (s.hits(P.temporary).some((t) => !masked(s, t))) return problem('temporary', 'a request for this answer only');
    // "我们 Celery 的 queue 最好按业务拆开": with no act of its own, a modal of advice before a verb (not the adjective
    // of "最好的办法") says what should be, weakly: held for the user.
    const advised = s
      .hits(P.weakeners)
      .some((h) => ADVICE_MODALS.has(h.text) && !/^\s*(?:的|是|不过)/u.test(s.span.text.slice(h.end)) && !masked(s, h));
    if (advised && !QUESTION_MARK.test(s.span.text)) return problem('weakened', 'a rule of advice with no act of its own, weakened');
    return problem('no_speech_act', 'no explicit speech act in the quoted sentence');
  }
  const live = acts.filter((a) => !a.negated);
  if (live.length === 0) {
    if (s.hits(P.undecided).length > 0) return problem('undecided', 'the statement is undecided');
    // "UDF 最好能不写就不写": a weakened prohibition — the negation is its content; held as weakened.
    if (s.hits(P.weakeners).length > 0) return problem('weakened', 'a weakened rule of not doing something');
    // "上周不是定了用 X 吗，怎么又…": the rhetorical 不是…吗 recalls the act as made — the user restates it, held.
    if (acts.some((a) => RHETORICAL_NEGATION.test(s.clauseText(a.clause))))
      return problem('question', 'a rhetorical 不是…吗 recalls the act as made', 'suggest');
    return problem('negated', 'the speech act is negated');
  }
  if (framed) return problem('third_party', 'the sentence reports what someone else said');
  // The quoted words themselves stand inside quotation marks ("像“以后都用 Kotlin 写”这种话"): mentioned or quoted,
  // whatever the rest of the sentence asks.
  if (quote.end > quote.begin && s.quoted.some(([a, b]) => a < quote.begin && quote.end < b + 1 && b - a > quote.end - quote.begin))
    return problem('quoted_speech', 'the quoted words stand inside quotation marks');
  live.sort((a, b) => Number(!quoteClauses.has(a.clause)) - Number(!quoteClauses.has(b.clause)) || a.hit.index - b.hit.index);
  let first: GateProblem | null = null;
  const lastQuoted = Math.max(-1, ...quoteClauses);
  for (const act of live) {
    // "另一个团队的服务默认…, we follow whatever …": once an act of the quoted words fails, an act of a later clause
    // the quote leaves out says something else; it does not make the quoted words stand.
    if (first !== null && quoteClauses.size < s.clauses.length && act.clause > lastQuoted) continue;
    const p = actProblem(s, act, quoteClauses, kind);
    if (p === null) {
      // ("对不对" holds "不对": inside an A-not-A form it takes nothing back.)
      const aNotA = s.hits(P.aNotA);
      if (
        s.hits(P.retractions, act.hit.end).some((r) => !overlaps(r, act.hit) && !aNotA.some((q) => overlaps(q, r)) && !dropsAnother(s, r))
      )
        return problem('retracted', 'the statement is taken back');
      if (act.weak)
        return problem('weak_evidence', `a ${act.hit.text ? `rule ("${act.hit.text}")` : 'rule'} with no scope: held for the user`);
      return null;
    }
    first ??= p;
  }
  return first;
}
