import {
  CHANGE_VERB,
  DESCRIPTIVE,
  EN_BE,
  EN_DESCRIPTION,
  EN_DETERMINERS,
  EN_MISHAPS,
  EN_PAST,
  EN_PERFECT,
  EN_PERSONS,
  EN_RESULT_SUBJECTS,
  EN_WANTING,
  EN_WISH_STARTS,
  FOLLOW_UP,
  HAN,
  P,
  ZH_BEHAVIOUR,
  ZH_DEMONSTRATIVE,
  ZH_DURATION,
  ZH_EVENT,
  ZH_FAILURE,
  ZH_IMPERATIVE_START,
} from './phrases.js';
import { type Act, Sentence, wordsOf } from './sentence.js';
import { SHAPE } from './lexicon.js';
import { tagged } from './pos.js';
import { UNIVERSAL_LEAD } from './shape.js';

// A verb of one or two characters with the perfective 了 / 过 opening the text ("实现了", "带了", "开过").
const ZH_PERFECTIVE_START = /^\s*(?:都|也|就|已经)?\s*\p{Script=Han}{1,2}(?:了|过)(?![解])/u;
const ZH_DURATIVE = /\p{Script=Han}{1,2}着(?![了想])/u;
const FAILURE_RESULTS = SHAPE.zhFailureResults;

/** A verb with a resultative of failure (jieba: "放错", or "写" + "漏"), no modal or prohibitive before it. */
function zhMishap(text: string): boolean {
  if (!FAILURE_RESULTS.some((r) => text.includes(r))) return false;
  const tags = tagged(text);
  if (!tags) return false;
  let at = 0;
  for (const [k, t] of tags.entries()) {
    const here = text.indexOf(t.word, at);
    at = here + t.word.length;
    const glued = t.word.length >= 2 && t.tag.startsWith('v') && FAILURE_RESULTS.some((r) => t.word.endsWith(r));
    const alone = FAILURE_RESULTS.includes(t.word) && k > 0 && /^[vn]/u.test(tags[k - 1]!.tag);
    if ((glued || alone) && !MODAL_BEFORE.test(text.slice(0, here))) return true;
  }
  return false;
}
const ZH_NOT_DURATIVE = SHAPE.zhNotDurative;
const MODAL_BEFORE = new RegExp(`${[...SHAPE.deontic.zh, ...SHAPE.prohibitive.zh, '要', '请', '就'].join('|')}`, 'u');

/** What kind of statement an act stands in: a description of behaviour, a one-off task. */

/** "这个测试在 CI 上总是报错", "By default, Jackson fails on …": behaviour, not a wish. */
export function describesBehaviour(s: Sentence, act: Act): boolean {
  const text = s.span.text;
  const clause = s.clauses[act.clause]!;
  const before = text.slice(clause.start, act.hit.index);
  let after = text.slice(act.hit.end, clause.end);
  // A fronted marker ("By default, …", "默认，…") describes the next clause.
  if (/^[\s\p{P}]*$/u.test(after) && s.clauses[act.clause + 1]) after = s.clauseText(act.clause + 1);
  // "咱们的 CI" is a thing of ours, not a person wishing.
  const ownBefore = s.hits(P.own, clause.start, act.hit.index).some((h) => h.end <= act.hit.index && !/^\s*的/u.test(text.slice(h.end)));
  if (HAN.test(act.hit.text)) {
    // "你每次都把 import 放错位置": a verb with a resultative of failure (放错, 写漏, 搞反) and no modal before it is
    // a mishap described, whoever the subject ("别写错" asks not to).
    if (zhMishap(after)) return true;
    if (ownBefore) return false;
    if (ZH_FAILURE.test(after)) return true;
    // "每次调用都会新建连接", "每次 npm install 都会报警告": what happens, not what should.
    if (ZH_EVENT.test(after) || ZH_DURATION.test(after)) return true;
    // "默认情况下，Spring 的事务只对…回滚": a fronted default followed by a named product or "X 的 Y" describes it.
    if (
      before.trim().length === 0 &&
      after !== text.slice(act.hit.end, clause.end) &&
      /^\s*(?:[a-z][\w.-]*|[^，,。\s]{1,8}的)/u.test(after) &&
      !ZH_IMPERATIVE_START.test(after)
    )
      return true;
    // "默认情况下 Spring 会把 bean 设成单例": a named product that "会" do something is described, comma or not.
    if (before.trim().length === 0 && /^\s*[a-z][\w.-]*\s*(?:都|也|就|总|一般|只)?(?:不会|会|不|只|是|有|没有|支持|返回|用)/u.test(after))
      return true;
    // "Go 的 map 默认是无序遍历的": a thing's noun phrase ("X 的 Y") as the subject, a copula or a prediction after.
    // ("Rust 的 HTTP 库默认不开压缩": a plain negation, not one of asking — 不要, 不许, 不用 — says what it does.)
    if (/的/u.test(before) && /^\s*(?:都|也|就|总)?\s*(?:是|会|为|不会|不(?![要许准用能得必]))/u.test(after)) return true;
    // "pandas 的 read_csv 默认 infers the dtypes": a thing's noun phrase, then an English verb of the third person.
    const en = /^\s*([a-z]+)\b/u.exec(after)?.[1];
    if (/的/u.test(before) && en !== undefined && (EN_DESCRIPTION.has(en) || (/[^s]s$/u.test(en) && en.length > 3))) return true;
    // "Kotlin 的 data class 默认实现了 equals", "Unity 的 prefab 默认带了一个 Transform": a verb with the perfective 了
    // or 过 after a thing's noun phrase says what it already does.
    if (/的/u.test(before) && ZH_PERFECTIVE_START.test(after)) return true;
    // "这个服务默认监听 8080 端口": a thing pointed at is described, not asked for.
    if (ZH_DEMONSTRATIVE.test(before)) return true;
    // "Kafka 默认保留 7 天": a product named in Latin letters as the subject describes that product.
    if (/^[\sa-z0-9._/@-]*[a-z][\sa-z0-9._/@-]*$/u.test(before) && before.trim().length > 0) return true;
    return (
      before.trim().length > 0 &&
      /\p{L}/u.test(before) &&
      ZH_BEHAVIOUR.test(after) &&
      !s.hits(P.standing).some((h) => h.index !== act.hit.index && !DESCRIPTIVE.has(h.text))
    );
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
  // ("would it be possible to default to …?": the "be" of a polite request describes nothing.)
  if (wordsBefore.some((w) => EN_PERSONS.has(w)) || s.hits(P.politeRequests, clause.start, act.hit.index).length > 0) return false;
  // ("numbers should be in SI units by default": a deontic modal before "be" says what is wanted.)
  if (wordsBefore.some((w) => EN_BE.has(w)) && !wordsBefore.some((w) => EN_WANTING.has(w))) return true;
  const thirdPerson = (w: string | undefined): boolean => w !== undefined && (EN_DESCRIPTION.has(w) || (/[^s]s$/u.test(w) && w.length > 3));
  if (wordsBefore.length > 0) return wordsAfter.length > 0 ? thirdPerson(wordsAfter[0]) : wordsBefore.slice(1, 3).some(thirdPerson);
  // Fronted ("By default, …"): a subject that is not a person, followed by a verb of behaviour.
  const first = wordsAfter[0];
  if (first === undefined || EN_WISH_STARTS.has(first)) return false;
  if (wordsAfter.slice(1, 4).some((w) => EN_DESCRIPTION.has(w))) return true;
  // "by default the scheduler kills …": an article after the marker opens a subject, with or without a comma.
  if (EN_ARTICLES.has(first) && indicativeOfThing(wordsAfter)) return true;
  return after !== text.slice(act.hit.end, clause.end) && namedSubject(s, act) && indicativeOfThing(wordsAfter);
}

const EN_ARTICLES = new Set(['the', 'a', 'an']);
// Words before a noun: a plural after one of them is a noun ("all endpoints require …"), not a verb.
const EN_NOUN_LEADS = new Set([...EN_DETERMINERS, 'all', 'every', 'each', 'new', 'most', 'some', 'any', 'both', 'many', 'no', 'other']);
// A subject of ours ("our builds", "this repo", "we") makes a fronted default our convention, not software's.
const EN_OWN_SUBJECT = new Set([...EN_PERSONS, 'our', 'my', 'us', 'this', 'here']);

/**
 * The clause after a fronted marker opens with a name in the RAW text, not a verb: a capital anywhere in its first
 * word ("By default, Spring Boot …", "iOS", "macOS", "gRPC") or a digit, dot or hyphen inside it ("k8s", "node.js").
 */
function namedSubject(s: Sentence, act: Act): boolean {
  const raw = s.text.slice(s.piece.start, s.piece.end);
  const at = raw.toLowerCase().indexOf(act.hit.text);
  if (at < 0) return false;
  const first = /^\s*[,，]\s*([\p{L}\p{N}][\p{L}\p{N}._-]*)/u.exec(raw.slice(at + act.hit.text.length))?.[1];
  return first !== undefined && (/\p{Lu}/u.test(first) || /\p{L}[\p{N}._-]+\p{L}/u.test(first));
}

/**
 * "By default, Spring Boot exposes only …": after a fronted default, a present verb in the third person (-s)
 * after a subject of no person and none of ours, and no modal before it: how a product behaves (M-5.6).
 */
function indicativeOfThing(words: readonly string[]): boolean {
  for (let i = 1; i < Math.min(words.length, 5); i += 1) {
    const w = words[i]!;
    const subject = words.slice(0, i);
    if (subject.some((x) => EN_OWN_SUBJECT.has(x) || EN_WANTING.has(x))) return false;
    if (/[^s]s$/u.test(w) && w.length > 3 && !EN_NOUN_LEADS.has(words[i - 1]!) && !EN_WANTING.has(w)) return true;
  }
  return false;
}

/**
 * "默认导出和具名导出混着用": after a Chinese marker, a verb with the durative 着 and no modal before it may be a
 * state described ("默认开着 debug 日志" may also be a wish): conflicting evidence.
 */
export function durativeState(s: Sentence, act: Act): boolean {
  if (!HAN.test(act.hit.text)) return false;
  const after = s.span.text.slice(act.hit.end, s.clauses[act.clause]!.end);
  const durative = ZH_DURATIVE.exec(after);
  if (!durative || MODAL_BEFORE.test(after.slice(0, durative.index + 1))) return false;
  return !ZH_NOT_DURATIVE.some((w) => durative[0].endsWith(w));
}

/** "把 docker-compose.yml 里的…", "帮我把 OrderService 的…": a 把 task that names one file or thing of the code. */
function namedTask(s: Sentence): boolean {
  return (
    /^[\s\p{P}]*(?:先|帮我|给我|麻烦|请)?把/u.test(s.span.text) &&
    (CODE_NAME.test(s.text.slice(s.piece.start, s.piece.end)) || FILE_NAME.test(s.span.text))
  );
}
const UNIVERSAL_OPENING = new RegExp(`^(?:${SHAPE.universal.zh.filter((u) => u.length > 1 && !u.startsWith('新')).join('|')})`, 'u');

const FILE_NAME = /[\w.-]+\.(?:ya?ml|json|jsx?|tsx?|py|java|kt|go|rs|md|toml|xml|properties|sql|sh|env|lock|gradle|conf)\b/u;
const PROHIBITED_BEFORE = /(?:别|不要|不许|不准|千万别)(?:再|只|光|就|随便)?\s*$|\b(?:don't|do not|never)\s+(?:just\s+|only\s+)?$/u;
const MAKE_ONE = /(?:写|加|建|做|搞|配|弄)(?:一个|个)|\b(?:write|create|add|set up|make|build) (?:me )?an? /u;

// A name of one thing in the code: camelCase, PascalCase with a second capital, snake_case, a path or branch.
const CODE_NAME =
  /(?<![\p{L}])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z0-9]+_[a-z0-9_]+|[\w.-]+\/[\w./-]+)(?![\p{L}])/u;

/**
 * A ruling verb in a one-off task: about one place ("把这个变量名改成 camelCase") it is refused; in the frame of a
 * request ("帮忙…", "can you …") it may still be a ruling, and is held for the user (M-5.7).
 */
const QUANTIFIED_BEFORE = /(?:\b(?:each|every|all|any)\s+(?:[\w-]+\s+){0,2}|(?:所有|每一?|任何)[个行段处]?的?\s*)$/iu;
const INSTANCE_PART_TASK =
  /^[\s\p{P}]*(?:先|帮我|给我|麻烦|请)?把\s*[a-z][a-z0-9]*[-_.][\w.-]*\s*的[^，,。所有每都各]{1,24}?(?:改成|换成|改为|删|去掉|拆成)/u;

export function oneOffTask(s: Sentence, act: Act): { detail: string; verdict: 'suggest' | 'refuse' } | null {
  // "帮我写一个 GitHub Action，每次 push 都跑 lint": the rule describes a thing the user asks to have made.
  // ("whenever you write a controller for me, …": a thing made inside a condition is the rule's occasion.)
  const made = MAKE_ONE.exec(s.span.text);
  // ("…，别只写个 X 让我猜": a thing made under a prohibitive is what not to do, not a thing asked for.)
  const forbidden = made !== null && PROHIBITED_BEFORE.test(s.span.text.slice(Math.max(0, made.index - 5), made.index));
  if (s.hits(P.requestFrames).length > 0 && made && !forbidden && !s.isCondition(s.clauseOf(made.index)))
    return { detail: 'a request to make one thing', verdict: 'refuse' };
  // "帮我把 utils.ts 里的所有 var 都改成 let": a quantifier over the parts of one named thing is one task.
  if (act.type === 'standing' && UNIVERSAL_OPENING.test(act.hit.text) && namedTask(s)) {
    return { detail: 'a change to every part of one named thing', verdict: 'refuse' };
  }
  if (act.type === 'standing') return null;
  if (s.hits(P.explicitDecision).length > 0) return null;
  // "Delete the old package and fix whatever imports break": the ruling is a step of work asked for now.
  if (act.type !== 'decision' && FOLLOW_UP.test(s.span.text.slice(act.hit.end)))
    return { detail: 'a ruling with the work to do now after it', verdict: 'suggest' };
  if (act.type === 'decision' && !CHANGE_VERB.test(act.hit.text)) return null;
  const scopes = s.hits(P.projectScopes);
  // "each log line you write": a thing of one place under a quantifier ranges over every such place.
  const local = s
    .hits(P.localObjects)
    .filter((h) => !scopes.some((c) => c.index <= h.index && c.end >= h.end))
    .filter((h) => !QUANTIFIED_BEFORE.test(s.span.text.slice(Math.max(0, h.index - 24), h.index)));
  // ("凡是新加的 autoload，add one line to …": under a clause ranging over every such thing, one place is one per thing.)
  const ranged = Array.from({ length: act.clause }, (_, j) => s.isCondition(j) || UNIVERSAL_LEAD.test(s.clauseText(j).trim())).some(
    Boolean,
  );
  if (local.length > 0 && !ranged) return { detail: 'a change to one place, not a project ruling', verdict: 'refuse' };
  // "把 docker-compose.yml 里的端口改成 3307": a task on one named file or thing of the code.
  if (namedTask(s)) return { detail: 'a task on one named thing of the code', verdict: 'refuse' };
  // "把那个 hotfix 分支干掉吧": 把 a thing pointed at by a demonstrative is a task on that one thing — or an
  // imperative ruling about it: held for the user.
  if (/^[\s\p{P}]*(?:先|帮我|给我|麻烦|请)?把\s*(?:那|这)(?:个|几个|些|条|两个|俩|根|套)/u.test(s.span.text))
    return { detail: 'a task on a thing pointed at', verdict: 'suggest' };
  // "帮我把 Dockerfile 改成多阶段构建": 把 a thing named in Latin letters, then a verb of changing it.
  if (/^[\s\p{P}]*(?:先|帮我|给我|麻烦|请)?把\s*[a-z][\w.-]*\s*(?:里的?[^，,。]{0,10})?(?:改成|换成|改为|删|去掉|拆成)/u.test(s.span.text))
    return { detail: 'a task on one named thing of the code', verdict: 'refuse' };
  // "把 billing-worker 的 Dockerfile 里的基础镜像换成 alpine": an instance's name (a hyphen, dot or digit in it), then
  // its parts by 的, then a verb of changing them, with no quantifier over them.
  if (INSTANCE_PART_TASK.test(s.span.text)) return { detail: 'a task on one named thing of the code', verdict: 'refuse' };
  // "帮我把 OrderService 里那个废弃的 calcDiscount 方法删了": a request naming one thing of the code.
  if (s.hits(P.requestFrames).length > 0 && CODE_NAME.test(s.text.slice(s.piece.start, s.piece.end)))
    return { detail: 'a request about one named thing of the code', verdict: 'refuse' };
  // ("别再给我推荐 X 了，…一律用 Y": a request frame under a prohibitive asks for nothing: it forbids, for good.)
  const requested = s.hits(P.requestFrames).filter((h) => !PROHIBITED_BEFORE.test(s.span.text.slice(Math.max(0, h.index - 5), h.index)));
  if ((act.type === 'ruling' || act.type === 'rule') && requested.length > 0)
    return { detail: 'a request for a task, not a ruling', verdict: 'suggest' };
  return null;
}
