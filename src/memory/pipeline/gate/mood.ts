import {
  DIRECTIVE_OPENING,
  EN_AUX,
  EN_CLAUSE_OPENER,
  EN_CONDITIONAL_WH,
  EN_RELATIVE_BEFORE,
  EN_SUBJECTS,
  EN_WH,
  EXCLAMATIVE_END,
  HAN,
  P,
  QUESTION_MARK,
  QUESTION_MARKS,
  ZH_FINAL,
  ZH_NOT_QUESTION_BEFORE,
  ZH_NOT_WH_BEFORE,
  ZH_UNIVERSAL_AFTER,
  ZH_WH_END,
  ZH_WHY,
} from './phrases.js';
import { tagged } from './pos.js';
import { type Act, ofAct, Sentence, wordsOf } from './sentence.js';
import { insideRanges } from './text-types.js';
import { type Hit, matchesOf, type Phrases, Span } from './words.js';

/** Mood and scope: questions, time scopes, hedges that are part of a noun phrase. */

/** True when a disqualifier word is part of a word that means something else ("默认假设", "临时文件"). */
export function masked(s: Sentence, hit: Hit): boolean {
  return s.hits(P.notDisqualifiers).some((m) => hit.index >= m.index && hit.end <= m.end);
}

/** True when the hit lies inside another act of any kind (a temporary word inside "从今天开始"). */
export function findActsOverlap(s: Sentence, hit: Hit): boolean {
  return [...s.hits(P.standing), ...s.hits(P.decision)].some((a) => a.index <= hit.index && a.end >= hit.end && a.text !== hit.text);
}

/** A clause that holds nothing but its time scope ("just this time,", "这次，"). */
export function isBareClause(s: Sentence, i: number): boolean {
  const rest = P.temporary.strip(new Span(s.clauseText(i))).replace(/\b(?:only|just|but|and|so|ok|okay)\b|[只就先仅]/gu, '');
  const han = (rest.match(/\p{Script=Han}/gu) ?? []).length;
  return han <= 2 && wordsOf(rest.replace(/\p{Script=Han}/gu, ' ')).length <= 1;
}

/** "可能出错的地方", "anything that might break": a modal inside a noun phrase, not speculation. */
export function isAttributive(text: string, hit: Hit): boolean {
  if (HAN.test(hit.text)) {
    const m = /^[^，,。；;\s]{0,6}?的/u.exec(text.slice(hit.end));
    if (!m) return false;
    // The 的 must be the particle of the modifier, not inside a word ("会被别的模块调用": 别的 is "other").
    const tags = tagged(text.slice(hit.index, hit.end + m[0].length + 2));
    if (!tags) return true;
    let at = 0;
    for (const t of tags) {
      const here = text.indexOf(t.word, hit.index + at) - hit.index;
      at = here + t.word.length;
      if (t.word === '的' && t.tag === 'uj') return true;
      if (at > hit.text.length + m[0].length) break;
    }
    return false;
  }
  return EN_RELATIVE_BEFORE.test(text.slice(Math.max(0, hit.index - 16), hit.index));
}

/** A question signal in the sentence, or null. */
export function questionSignal(s: Sentence, act: Act): string | null {
  const text = s.span.text;
  // ("用 `?` 传播错误": a question mark inside a code span is a symbol of the code.)
  const code = matchesOf(CODE_SPAN, text).map((m): [number, number] => [m.index, m.index + m[0].length]);
  for (const m of matchesOf(QUESTION_MARKS, text))
    if (!insideRanges(s.quoted, m.index, m.index + 1) && !insideRanges(code, m.index, m.index + 1)) return 'the statement is a question';
  if (ZH_FINAL.test(text) && !ZH_WH_END.test(text.slice(-4))) return 'the statement is a question';
  // "以后回复的时候能带上表情吗，我觉得挺可爱的": the act's own clause may end on the question particle.
  const own = s.clauseText(act.clause);
  if (own !== text && HAN.test(own) && ZH_FINAL.test(own.replace(/[，,；;]\s*$/u, '')) && !ZH_WH_END.test(own.slice(-4)))
    return 'the statement is a question';
  for (const h of s.hits(P.aNotA)) {
    if (ofAct(h, act)) continue;
    const before = text.slice(Math.max(s.clauses[s.clauseOf(h.index)]!.start, h.index - 4), h.index);
    if (ZH_NOT_QUESTION_BEFORE.test(before)) continue;
    // "不是不是，我说的是…": a negation said twice ("不是" + "不是") is no A-not-A question.
    if (text.slice(h.index - 1, h.index) === '不' && h.text.startsWith(text.slice(h.index, h.index + 1))) continue;
    // An embedded question is the object of telling or checking ("说一下索引有没有用上"), in its clause or, with no
    // question mark, anywhere before it ("先告诉我升哪个、升到多少").
    if (s.hits(P.embedding, s.clauses[s.clauseOf(h.index)]!.start, h.index).length > 0) continue;
    if (!QUESTION_MARK.test(text) && s.hits(P.embedding, 0, h.index).length > 0) continue;
    return 'the statement is a question';
  }
  for (const h of s.hits(P.zhWh)) {
    const c = s.clauses[s.clauseOf(h.index)]!;
    const before = text.slice(c.start, h.index);
    const after = text.slice(h.end, c.end);
    const why = ZH_WHY.test(h.text);
    if (!why && (P.universals.has(new Span(before)) || ZH_UNIVERSAL_AFTER.test(after) || ZH_NOT_WH_BEFORE.test(before))) continue;
    if (s.hits(P.embedding, c.start, h.index).length > 0) continue;
    if (!QUESTION_MARK.test(text) && s.hits(P.embedding, 0, h.index).length > 0) continue;
    // "别再给我科普 X 是什么了": in a directive, the wh-word belongs to what is (not) to be done.
    if (!QUESTION_MARK.test(text) && DIRECTIVE_OPENING.test(text.slice(c.start, h.index))) continue;
    // "你想怎么格式化就怎么格式化": a wh-word taken up again after 就 is free choice, not a question.
    if (text.slice(h.end).includes(`就${h.text}`)) continue;
    // "谁关谁请喝奶茶", "用什么写什么": the same wh-word again later is free choice too.
    if (!QUESTION_MARK.test(text) && text.split(h.text).length > 2) continue;
    return 'the statement is a wh-question';
  }
  if (s.hits(P.zhIndirect).length > 0 || s.hits(P.enIndirect).length > 0) return 'the statement is an indirect question';
  for (const i of new Set([0, act.clause])) {
    const words = wordsOf(s.clauseText(i).replace(EN_CLAUSE_OPENER, ''));
    const [first, second, third] = [words[0] ?? '', words[1] ?? '', words[2] ?? ''];
    // "Any migration that locks a table needs a plan": "any" opens a universal subject when a deontic modal
    // follows, a yes/no question ("any chance you could …") otherwise.
    if (first === 'any') {
      if (s.hits(P.deontic, s.clauses[i]!.start, s.clauses[i]!.end).length > 0) continue;
      // ("Any task that needs a big stack, 都要写注释": the modal may stand in the clause after the noun phrase.)
      if (!QUESTION_MARK.test(text) && s.hits(P.deontic, s.clauses[i]!.end).length > 0) continue;
      // ("Any new cron job, list it in …": a noun phrase of its own clause, then the rule — no one is asked anything.)
      if (!QUESTION_MARK.test(text) && i + 1 < s.clauses.length && !ANY_QUESTION.test(s.clauseText(i))) continue;
      return 'the statement is a question';
    }
    if (EN_WH.has(first) && !(first === 'how' && second === 'about')) return 'the statement is a wh-question';
    if (EN_CONDITIONAL_WH.has(first) && EN_AUX.has(second)) return 'the statement is a wh-question';
    if (EN_AUX.has(first) && (EN_SUBJECTS.has(second) || (second === 'not' && EN_SUBJECTS.has(third))))
      return 'the statement is a question';
  }
  return null;
}

const CODE_SPAN = /`[^`\n]+`/gu;
// "any chance you could …", "any idea why …": "any" opening a question to someone.
const ANY_QUESTION = /\b(?:you|we|i|chance|idea|luck|way|reason|news|update)\b/u;

export function isTagQuestion(span: Span): boolean {
  if (!QUESTION_MARK.test(span.text)) return false;
  const rest = P.tagQuestions.strip(span).replace(/[\s\p{P}\p{S}]|你|呢|吧|啊|so|then|and/gu, '');
  return P.tagQuestions.has(span) && Array.from(rest).length <= 4;
}

/** A clause that holds little besides the given words ("还没想好", "I guess"): it comments on the sentence. */
export function isBareOf(s: Sentence, i: number, phrases: Phrases): boolean {
  const rest = phrases
    .strip(new Span(s.clauseText(i)))
    .replace(/\b(?:but|and|so|yet|still|we|i|it|is|are|not)\b|[我们还也都但不过是]/gu, '');
  const han = (rest.match(/\p{Script=Han}/gu) ?? []).length;
  return han <= 2 && wordsOf(rest.replace(/\p{Script=Han}/gu, ' ')).length <= 1;
}

/**
 * "…，多有意思", "多方便啊": the sentence ends on an exclamative — 多 and one word that is not a verb of doing
 * ("多写测试" asks for more tests). A cue of sarcasm after a rule.
 */
export function exclamativeEnd(text: string): boolean {
  const word = EXCLAMATIVE_END.exec(text)?.[1];
  if (!word) return false;
  const tags = tagged(word);
  if (!tags || tags.length !== 1) return false;
  return !tags[0]!.tag.startsWith('v') || tags[0]!.word.startsWith('有');
}
