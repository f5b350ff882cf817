/**
 * Answer types of the ranked search (M-7.7). Some questions ask for a kind of answer a text either gives or does
 * not: a quantity ("how long", "保留多久", "跑几个副本") or a name form ("how are topics named", "字段命名规范"). A memory
 * about the subject that gives no number, or no pattern, example or case style of a name, is about another aspect
 * of it: "Feast 特征 TTL 设多久" is not answered by "features are served from Feast", nor "how are consumer groups
 * named" by "delayed messages go through RocketMQ".
 */

import {
  ASKS_PERSON,
  ASKS_REASON,
  ASKS_STEPS,
  ASKS_TIME,
  STATES_PERSON,
  STATES_PERSON_NAME,
  STATES_REASON,
  STATES_STEPS,
  STATES_TIME,
} from './search-answer-kinds.js';
import { askedVersionRows, asksVersion, statedVersionRows } from './search-answer-version.js';
import { type WordGroup, wordGroups } from './search-words.js';

/**
 * An answer type a question may ask for and a text may state: a quantity, a name form, a time, a reason, a person, the
 * steps of a procedure (shared/search-answer-kinds). A version is asked of a named thing and has rows of its
 * own (shared/search-answer-version).
 */
export type AnswerType = 'quantity' | 'name' | 'time' | 'reason' | 'person' | 'steps';

/** The content row of an item whose text states an answer type (normalized words never hold '#'). */
export function answerTypeTerm(type: AnswerType): string {
  return `#${type}`;
}

// Measure words and units a Chinese number is said with (三个, 两天, 5 分钟, 一亿行, 72 字符).
const ZH_UNITS =
  '个|次|天|日|年|月|周|号|分钟|分|小时|时|秒|毫秒|种|条|位|台|倍|遍|层|步|轮|项|页|行|份|字|字符|张|人|件|成|折|万|亿|千|百|期|' +
  '版|代|级|档|核|星期|副本|实例|节点';
const EN_NUMBERS =
  'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty hundred ' +
  'thousand million billion half once twice';
const EN_FREQUENCIES = 'daily weekly monthly nightly hourly yearly annually quarterly';
const EN_UNITS = 'second minute hour day night week month quarter year sprint release';
const alternatives = (words: string): string => words.trim().split(/\s+/u).join('|');

/**
 * A stated quantity: a number standing alone or with its unit (30, 2.5, 30s, 200ms; not the digits of a name such as
 * K8s, S3 or v1), a Chinese numeral with a measure word (三个, 两天, 半年), a weekday (周二, 星期五), a day said as a
 * period (当天, 次日) or a frequency (每天, 每周), an English number word, a frequency word (daily, weekly) or one unit
 * of time (an hour, per day, every sprint), and what never ends (永久, forever).
 */
const STATED_QUANTITY = new RegExp(
  [
    '(?<![\\p{L}\\p{N}_.])\\d+(?:[.,]\\d+)*(?![\\p{L}]*\\d)',
    `[零一二两三四五六七八九十百千万半几]+(?:${ZH_UNITS})`,
    '(?:周|星期|礼拜)[一二三四五六日天]',
    '当天|当日|次日|隔天|隔日|永久|每[天日周月年晚]',
    `\\b(?:${alternatives(`${EN_NUMBERS} ${EN_FREQUENCIES}`)}|forever)\\b`,
    `\\b(?:an?|per|each|every)\\s+(?:${alternatives(EN_UNITS)})s?\\b`,
  ].join('|'),
  'iu',
);

/**
 * A stated name form: an identifier written with its separators (order_id, feat/retry-policy, 服务名:实体:id) or a
 * placeholder (<ticket>), a camelCase name starting small (traceId), a code span, or a word for a case style, an affix
 * or a word form (前缀, 小写, 下划线, 复数, prefix, snake case, plural). Names of products written in capitals (RocketMQ,
 * JetStream) show no form of a name.
 */
const STATED_NAME = new RegExp(
  [
    '[\\p{L}\\p{N}]+(?:[_\\-/.:]+[\\p{L}\\p{N}]+)+',
    '(?<!\\p{L})\\p{Ll}+\\p{Lu}\\p{L}*',
    '`[^`\\n]+`',
    // a placeholder of a pattern: feature/<ticket>, {service}.{event}
    '<[\\p{L}_-]+>|\\{[\\p{L}_-]+\\}',
  ].join('|'),
  'u',
);
// … and the words for a case style, an affix or the form of a word (plural, abbreviation), in any case.
const NAME_STYLE_WORDS =
  /前缀|后缀|开头|结尾|大写|小写|驼峰|下划线|连字符|复数|单数|缩写|拼音|\b(?:prefix|suffix|upper|lower|capital|camel|snake|kebab|pascal|plural|singular|abbreviat)/iu;

// Measure words a number is asked in after 几 (几次, 几天, 几个), as in the word rules of shared/search-words.
const ZH_ASKED_UNITS = '个|次|天|年|月|周|号|分钟|小时|秒|毫秒|种|条|位|台|倍|遍|层|步|轮|项|页|行|份';

/**
 * A question for a quantity: 多久, 多少, 多长, 多大 and the like, 几 with a measure word (几个, 几天; not 好几个 or 十几个,
 * which say "several"), "how" with a word of degree (how long, how many, how often), and the name of a measure, whose
 * value is what is asked (TTL, retention, threshold, size, frequency, 有效期, 阈值, 副本数, 大小, 频率).
 */
const ASKS_QUANTITY = new RegExp(
  [
    '多久|多少|多长|多大|多高|多远|多快|多频繁|多重|多宽|多深',
    `(?<![好十百千万])几(?:${ZH_ASKED_UNITS})`,
    '\\bhow\\s+(?:long|many|much|big|large|small|often|frequently|old|far|soon|fast)\\b',
    // the name of a measure asks for its value: TTL, retention, threshold, size, frequency, 有效期, 阈值, 大小, 频率
    '\\b(?:ttl|retention|durations?|intervals?|thresholds?|quotas?|percentages?|sizes?|frequency|cadence|capacity)\\b',
    '保留期|保留时长|时长|副本数|有效期|过期时间|间隔|阈值|上限|下限|配额|百分比|覆盖率|大小(?!写)|尺寸|体积|容量|频率(?!控制|限制)|频次',
  ].join('|'),
  'iu',
);

/**
 * A question for a name form: 命名, 名字, 名称, 起名, naming, name, named (not inside an identifier: dag_name), and for
 * the letter case of names (大小写, casing).
 */
const ASKS_NAME = /命名|名字|名称|起名|取名|大小写|\bnam(?:e|es|ed|ing)\b|\bcasing\b/iu;

/**
 * The answer types a text states (see STATED_QUANTITY, STATED_NAME and shared/search-answer-kinds): its item can answer
 * questions for them.
 */
export function statedAnswerTypes(text: string): AnswerType[] {
  const normalized = text.normalize('NFKC');
  const stated: [AnswerType, boolean][] = [
    ['quantity', STATED_QUANTITY.test(normalized)],
    ['name', STATED_NAME.test(normalized) || NAME_STYLE_WORDS.test(normalized)],
    ['time', STATES_TIME.test(normalized)],
    ['reason', STATES_REASON.test(normalized)],
    ['person', STATES_PERSON.test(normalized) || STATES_PERSON_NAME.test(normalized)],
    ['steps', STATES_STEPS.test(normalized)],
  ];
  return stated.filter(([, holds]) => holds).map(([type]) => type);
}

/** The answer types a query asks for: only items that state them may answer it through the ranked stage. */
export function askedAnswerTypes(query: string): AnswerType[] {
  const normalized = query.normalize('NFKC');
  const asked: [AnswerType, RegExp][] = [
    ['quantity', ASKS_QUANTITY],
    ['name', ASKS_NAME],
    ['time', ASKS_TIME],
    ['reason', ASKS_REASON],
    ['person', ASKS_PERSON],
    ['steps', ASKS_STEPS],
  ];
  return asked.filter(([, asks]) => asks.test(normalized)).map(([type]) => type);
}

/** The answer rows of a text's item: one per answer type it states, and the rows of the versions it states. */
export function statedAnswerRows(text: string): string[] {
  return [...statedAnswerTypes(text).map(answerTypeTerm), ...statedVersionRows(text)];
}

/**
 * What a query asks a ranked hit to state, each a list of rows one of which the hit must have: the row of each answer
 * type asked, and for a question for a version the rows of a version of what it names.
 */
export function askedAnswerRows(query: string): string[][] {
  return [...askedAnswerTypes(query).map((type) => [answerTypeTerm(type)]), ...(asksVersion(query) ? [askedVersionRows(query)] : [])];
}

/**
 * What separates the options of a question that offers a choice: 还是, 或者, "or", "vs" ("Redis 用 Sentinel 还是 Cluster",
 * "gofmt or gofumpt", "Jest vs Vitest"). Only between two words: a leading 还是 says "still" ("还是用 Maven 吗").
 */
const OPTION_SEPARATOR = /还是|或者|或是|(?<![\p{L}\p{N}])(?:or|vs\.?|versus)(?![\p{L}\p{N}])/giu;
// A negation after the separator offers no option ("retry or not", "用还是不用").
const NEGATION = /^\s*(?:not|no|不|没)/iu;
// An option ends at a clause's punctuation: "the table has 300M rows, table or incremental?".
const CLAUSE_BREAK = /[,，;；:：?？。!！、()（）—]/u;
/**
 * In an English clause that asks with its own words ("which parameter comes first in functions that hit the network
 * or disk", "how should I define a request or response object"), "or" joins two things the question is about; a bare
 * "A or B" (a clause of its own: "JPA or MyBatis?", "warn or error") offers the choice.
 */
const ASKING_CLAUSE =
  /\b(?:how|what|which|when|where|why|who|whose|is|are|was|were|do|does|did|should|can|could|would|will|shall|may|must)\b/iu;
// An option named in Latin letters or digits: a tool, a format, a value (ECS, gofmt, warn, 8.0).
const LATIN_OPTION = /[\p{Script=Latin}\p{N}]/u;

/**
 * The word that names an option at one end of a side: the nearest word of full weight (a general word or a guess,
 * such as "mode" in "sentinel mode or cluster mode", names the kind of option, not the option), else the nearest word.
 */
function optionWord(groups: WordGroup[], fromEnd: boolean): WordGroup | undefined {
  const ordered = fromEnd ? [...groups].reverse() : groups;
  return ordered.find((g) => g.weight >= 1) ?? ordered[0];
}

/**
 * The options a question offers (M-7.7): the word before and the word after each separator. A question that asks
 * which of two things was chosen is answered only by a memory that names one of them: "Redis 用 Sentinel 还是
 * Cluster" is not answered by a memory about Redis as a cache, "gofmt or gofumpt" not by one about golangci-lint.
 * Only options of which one at least is named in Latin letters are checked: a name (a tool, a format, a value) is
 * written the same in a memory, while Chinese words for an option are often said otherwise there (记录类 for Java
 * records, 倒排索引引擎 for Elasticsearch). Empty when the question offers no such choice. Each option is the query
 * word as indexed, with the forms that stand for it.
 */
export function askedOptions(query: string): WordGroup[] {
  const text = query.normalize('NFKC');
  const cuts = [...text.matchAll(OPTION_SEPARATOR)];
  const options: WordGroup[] = [];
  cuts.forEach((cut, i) => {
    const start = i === 0 ? 0 : cuts[i - 1]!.index + cuts[i - 1]![0].length;
    const end = i + 1 < cuts.length ? cuts[i + 1]!.index : text.length;
    const left = text.slice(start, cut.index).split(CLAUSE_BREAK).at(-1)!;
    const right = text.slice(cut.index + cut[0].length, end).split(CLAUSE_BREAK)[0]!;
    if (NEGATION.test(right)) return;
    if (cut[0].toLowerCase() === 'or' && ASKING_CLAUSE.test(`${left} ${right}`)) return;
    const before = optionWord(wordGroups(left), true);
    const after = optionWord(wordGroups(right), false);
    if (before === undefined || after === undefined) return;
    if (!LATIN_OPTION.test(before.term) && !LATIN_OPTION.test(after.term)) return;
    options.push(before, after);
  });
  return options;
}
