import { G, P } from './phrases.js';
import type { Sentence } from './sentence.js';
import { type Hit, matchesOf, Span } from './words.js';

/**
 * Standing acts found by clause structure, not by a marker word (M-5.6): a rule needs no fixed phrase. Each
 * returns the hit that stands for the act (the verb or prohibitive that opens it).
 *
 * - a general prohibition: "别用缩写变量名", "前端不要自己算总价", "Stop wrapping every answer …" — a prohibitive
 *   opening its clause (after at most a short subject) about no one thing in particular;
 * - a rule under a condition: "碰到需要加依赖的情况，先问我" — a condition clause, then an imperative clause;
 * - a choice against an alternative: "We use Testcontainers …, not the H2 thing", "用 X 而不是 Y";
 * - an instruction about answers: "回答里…，附上相关源码的行号", "in your answers, include …".
 */

const word = (words: readonly string[]): string => words.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
// A prohibitive opening its clause, after at most a short subject or a condition ("碰到 flaky 的测试别…").
// ("别的团队的…": 别 before 的 is "other", no prohibitive.)
const SUBJECT_OR_CONDITION = '((?:(?:碰到|遇到|每当|当)[^，,。]{1,20}?)|[^\\s，,。]{0,6}?)';
const PROHIBITIVE_OPENING = new RegExp(
  `^[\\s\\p{P}]*(?:(?:${word(G.clauseLeads)})\\s*)*${SUBJECT_OR_CONDITION}\\s*(${word(G.prohibitives)})(?!的)(?=\\s*[\\p{L}\\p{N}])`,
  'u',
);
const IMPERATIVE_OPENING = new RegExp(`^[\\s\\p{P}]*(?:(?:${word(G.clauseLeads)})\\s*)*(${word(G.imperatives)})(?=[\\s\\p{L}\\p{N}])`, 'u');
const CONTRAST = new RegExp(`(?:${word(G.contrasts)})(?![a-z])`, 'u');
const CHOICE_ALL = new RegExp(`(?<![a-z])(${word(G.choiceVerbs)})(?![a-z])`, 'gu');
const STOP_GERUND = /(?:^|[^\p{L}])(stop\s+[a-z]+ing)\b/u;
const WEAK_RULE = new RegExp(`^[\\s\\p{P}]*(?:(?:${word(G.clauseLeads)})\\s*)*[^，,。]{0,10}?(${word(G.weakRuleVerbs)})`, 'u');
const CONVENTION = new RegExp(
  `(?<![a-z])(?:${word(G.ownConventionSubjects)})\\s*(?:${word(G.conventionModals)})?\\s*(${word(G.conventionVerbs)})(?![a-z])`,
  'u',
);
const UNIVERSAL = new RegExp(`(?<![a-z])(?:${word(G.universals)})(?![a-z])`, 'u');
const PRESENT_STATE = new RegExp(word(G.presentState), 'u');
const SPEAKERS = new RegExp(`(?:^|[^\\p{L}])(?:${word(G.speakingSubjects)})$`, 'u');

const hitAt = (s: Sentence, clause: number, offset: number, text: string): Hit => {
  const index = s.clauses[clause]!.start + offset;
  return { index, end: index + text.length, text };
};

/** The clause names one thing in particular ("这个文件", "this line", "it"): a task, not a rule. */
function particular(s: Sentence, i: number): boolean {
  const c = s.clauses[i]!;
  return s.hits(P.localObjects, c.start, c.end).length > 0 || s.hits(P.deictics, c.start, c.end).length > 0;
}

/**
 * The first verb of choosing in a clause that ends a word ("上个月" holds no 上, "线上用" holds 用) and
 * no modifier ("上个月选的 Lerna": a verb before 的 is a relative clause of its noun).
 */
function choiceIn(s: Sentence, i: number): Hit | null {
  const c = s.clauses[i]!;
  for (const m of matchesOf(CHOICE_ALL, s.clauseText(i))) {
    const index = c.start + m.index + m[0].length - m[1]!.length;
    const end = index + m[1]!.length;
    if (!/\p{Script=Han}/u.test(m[1]!)) return { index, end, text: m[1]! };
    // Its end is a word boundary ("不上|kubernetes" glues the negation before it; "上个|月" is another word).
    if (s.span.aligned(end, end) && s.span.text[end] !== '的') return { index, end, text: m[1]! };
  }
  return null;
}

export function grammarActs(s: Sentence): Hit[] {
  const out: Hit[] = [];
  for (let i = 0; i < s.clauses.length; i += 1) {
    const text = s.clauseText(i);
    const prohibitive = PROHIBITIVE_OPENING.exec(text);
    // The subject of a prohibition is a part of the project ("前端不要…") or the one addressed; "I don't …",
    // "我们不要…" describe or ask, and "要不要" is a question.
    const subject = prohibitive?.[1] ?? '';
    if (
      prohibitive &&
      !particular(s, i) &&
      !P.thirdParties.has(new Span(subject)) &&
      !SPEAKERS.test(subject) &&
      !subject.endsWith(prohibitive[2]!.slice(-1))
    ) {
      out.push(hitAt(s, i, prohibitive.index + prohibitive[0].length - prohibitive[2]!.length, prohibitive[2]!));
      continue;
    }
    const stop = STOP_GERUND.exec(text);
    if (stop && !particular(s, i)) {
      out.push(hitAt(s, i, stop.index + stop[0].length - stop[1]!.length, stop[1]!));
      continue;
    }
    // A condition, then an imperative: "碰到…的情况，先问我", "When a test is flaky, mark it and tell me".
    if (i > 0 && s.isCondition(i - 1)) {
      const imperative = IMPERATIVE_OPENING.exec(text);
      if (imperative && !particular(s, i)) {
        out.push(hitAt(s, i, imperative.index + imperative[0].length - imperative[1]!.length, imperative[1]!));
        continue;
      }
    }
    // An instruction about answers: "回答里…，附上行号".
    const topic = s.hits(P.answerTopics, 0, s.clauses[i]!.start);
    if (i > 0 && topic.length > 0) {
      const imperative = IMPERATIVE_OPENING.exec(text);
      if (imperative && !particular(s, i)) {
        out.push(hitAt(s, i, imperative.index + imperative[0].length - imperative[1]!.length, imperative[1]!));
        continue;
      }
    }
  }
  // A convention of this project: "这个仓库里我们用 pnpm workspace", "We target Node 20 LTS here", "we'd keep every
  // service image under 200MB" — our choice, scoped to this project or to every thing of a kind, not a state
  // of the code ("我们现在用的是 MySQL").
  const scoped = s.hits(P.projectScopes).length > 0 || UNIVERSAL.test(s.span.text);
  if (scoped && !PRESENT_STATE.test(s.span.text)) {
    for (let i = 0; i < s.clauses.length; i += 1) {
      const m = CONVENTION.exec(s.clauseText(i));
      if (m) {
        out.push(hitAt(s, i, m.index + m[0].length - m[1]!.length, m[1]!));
        break;
      }
    }
  }
  // A weakened rule: "尽量用中文写变量注释", "最好都走异步", "if you can 的话，每个回答控制在一屏以内" — a weakener, then
  // an imperative or a rule over every thing of a kind (held for the user as weakened).
  const weak = s.hits(P.weakeners)[0];
  if (weak && out.length === 0) {
    for (let i = s.clauseOf(weak.index); i < s.clauses.length; i += 1) {
      const c = s.clauses[i]!;
      const rest = s.span.text.slice(i === s.clauseOf(weak.index) ? weak.end : c.start, c.end);
      const m = WEAK_RULE.exec(rest);
      if (m && !particular(s, i)) {
        const at = (i === s.clauseOf(weak.index) ? weak.end : c.start) + m.index + m[0].length - m[1]!.length;
        out.push({ index: at, end: at + m[1]!.length, text: m[1]! });
        break;
      }
    }
  }
  // A choice against its alternative, in the same sentence.
  if (CONTRAST.test(s.span.text) && s.hits(P.codeFacts).every((f) => !/的是|现在|目前|当前|currently/u.test(f.text))) {
    for (let i = 0; i < s.clauses.length; i += 1) {
      const choice = choiceIn(s, i);
      if (choice && !particular(s, i)) {
        out.push(choice);
        break;
      }
    }
  }
  return out;
}
