import { GLOSSARY } from './search-glossary.js';

/**
 * The words search ranks by (M-7.7), the same on the item side and the query side: Chinese words found by
 * `Intl.Segmenter` (character bigrams only where it finds no word), identifier parts (camelCase,
 * snake_case, kebab-case, dotted names) with their joined form, lightly stemmed English words, and no
 * stop words. Text is NFKC-folded and case-folded first, like every match (M-7.2).
 */

/**
 * The version of the rules that turn a text into indexed words. Term rows are derived from them, so a change of
 * the words an item is indexed under (the glossary, stemming, segmenting) raises it, and a database whose rows
 * an older version wrote gets them written again at start-up (memory/db/term-format). 3: glossary concepts;
 * 4: A-not-A questions and "how long / how many" ask and index nothing; 5: a stop word split into two single
 * characters is no bigram; 6: an identifier is one word of a phrase, localizers stand alone, 几 and a measure word
 * ask, a character beside only function characters is paired, determiners of quantity are stop words; 7: every
 * bigram of single characters is a guess, code-style words in the glossary; 8: runtime and SDK in the glossary,
 * degree and modal words are stop words; 9: -ied stems like -ies, British -ise / -our spellings meet American ones;
 * 10: glossary families of output and debugging, logging, databases, operations, identity and testing; 11: a version
 * number is one word, an acronym's plural is one word, glossary families of caching, data modelling, scheduling,
 * time periods and the style of answers; 12: the last word of a compound that says how (-style, -based) is a word
 * of its own; 13: a participle after a hyphen (TaskFlow-decorated) is a word of its own, "-oes" plurals (goes), the
 * unit after "how many / how much" asks; 14: glossary families of release and operations, cloud, observability,
 * networking and HTTP, security and messaging; 15: glossary families of languages and runtimes, dependencies, builds,
 * version control, testing, SQL and data, concurrency, front end and mobile, machine learning, documents and project
 * work, code quality and punctuation; 16: a lone interrogative (哪, 啥, 谁, 咋) is a function character; 17: "spec"
 * (also a test file) and 看板 (also a dashboard) are no glossary forms; 18: -ing and -ed are stripped only from a stem
 * with a vowel (spring, string), glossary families of everyday code work and of what is allowed, "agreed", "still",
 * 上次 and 说的 ask, "framework", "platform" and 平台 are general words; a negation before a hyphen (non-idempotent) is
 * a word of its own; the modal 该 and the light verbs 放, 走, 加, 写, 打, 搞 and 弄 standing alone pair with no neighbour;
 * 19: an English function word standing alone among Chinese words is a word (写 any, 用 this); words of asking after
 * a time (什么时候), a preference (倾向, 我想) or what was said (怎么说), 以后, 多个, 同一, 一次, 好几, 讲究, 合适 and 大家 are
 * stop words, and so is an outcome after a word of the past (上次的结论); 哪 and 一 with a measure word ask (哪一层);
 * aspects a subject is measured or placed by (比例, 位置, ratio, location) are general words; the particle 过 after a
 * verb of talking stands alone (讨论|过|分库分表); a camelCase name with a part that is no word (MySQL) is marked partial;
 * glossary forms kube, 有效期, encoder and exporter; 20: the answer-type rows of an item whose text states a
 * quantity or a name form (shared/search-answer-types); 21: glossary forms remark (a comment), interactive,
 * integration, numbering and the next day; 22: the answer-type rows of a stated time, reason, person or steps, and the
 * version rows of the versions a text states (shared/search-answer-version).
 */
export const TERM_RULES_VERSION = 22;

let segmenter: Intl.Segmenter | undefined;
/**
 * The word segmenter, made on first use: ICU loads its word dictionary when one is constructed (about 14 ms),
 * a cost the commands that never segment text (`memory list`, `status`, `show`) do not pay at start.
 */
function wordSegmenter(): Intl.Segmenter {
  return (segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' }));
}

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
// A CJK run, or an identifier: letters and digits joined by - _ . / (no space between).
const CHUNK = new RegExp(
  `[${CJK_CLASS}]+|(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+(?:[-_./](?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+)*`,
  'gu',
);
const CJK_START = new RegExp(`^[${CJK_CLASS}]`, 'u');
const SEPARATORS = /[-_./]/u;
const VERSION_NUMBER = /^\d+(?:\.\d+)+$/u;

/**
 * English words that say nothing about what a memory is about: function words, and the words people use
 * to ask about memories ("what is our policy on …", "which … should I use").
 */
export const EN_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below between both but by can ' +
    'could did do does doing done down during each either else etc ever every few for from further get gets got had has ' +
    'have having he her here hers him his how however i if in into is it its itself just let lets me might mine more ' +
    'most much must my no nor not now of off on once only or other our ours out over own per please same she should so ' +
    'some such than that the their theirs them then there these they this those through thus to too under until up ' +
    'upon us very via was we were what whatever when whenever where whether which while who whom whose why will with ' +
    'within without would yes yet you your yours ' +
    // asking about memories
    'agree agreed agreement anything anyone currently decide decided decision decisions exactly kind know like mean means need needs ' +
    'policy policies prefer preference preferences preferred remember rule rules say said setting settings something ' +
    'ok okay one recommend recommended settle settled still supposed tell thing things think use used uses using want wanted wants way ways'
  ).split(' '),
);

/**
 * Chinese function words and words of asking ("用户对分支命名有什么要求": only 分支 and 命名 say what it is about).
 * Matched against whole segmenter words.
 */
export const ZH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    '我们 你们 他们 她们 它们 咱们 大家 自己 这个 那个 这些 那些 这里 那里 这样 那样 这种 那种 什么 怎么 怎样 怎么样 如何 为什么 ' +
    '为何 哪些 哪个 哪里 哪儿 是否 是不是 有没有 可以 可能 应该 需要 一下 一些 一个 一种 还是 或者 以及 然后 因为 所以 如果 ' +
    '但是 不过 而且 并且 没有 不是 就是 只是 还有 现在 时候 关于 对于 其中 之前 之后 以前 时候 已经 一直 目前 当前 ' +
    '要用 用户 要求 规定 规则 偏好 习惯 决定 约定 原则 说过 说的 提过 提到 记得 上次 上回 当时 当初 下来 打算 想要 希望 喜欢 的话 东西 问题 情况 方面 相关 具体 一般 ' +
    // asking after a time, a preference or what was said, like "when", "prefer", "said"
    '怎么说 什么时候 啥时候 何时 倾向 我想 我能 能否 以后 同一 同一个 讲究 合适 ' +
    '到底 究竟 多少 多久 多长 多大 几个 哪种 哪里 怎么办 什么样 吗 呢 吧 啊 呀 嘛 哦 么 ' +
    // determiners of quantity, like "each every all any"
    '每个 每次 每种 每一个 各个 各种 所有 全部 任何 任意 整个 多个 好几 好几个 一次 ' +
    // degree and modal words, like "most more few very much must only"
    '最多 最少 至少 更多 更少 很多 很少 非常 必须 一定 务必 只有 只能'
  ).split(' '),
);

/**
 * General nouns and light verbs: words that name an aspect, a kind or a handling of a subject rather than the
 * subject ("Go version", "SQL 格式规范", "how should I write tests", "outbox pattern"). They carry weight, but
 * GENERIC_WEIGHT of it, so a query's subject words decide what it finds: "MySQL 版本" does not find a memory
 * about API versions by 版本 alone. A closed class of the language (shell nouns, light verbs, the aspects
 * software is described by), not words of particular queries; matched after stemming, whole words only.
 */
const GENERIC_EN_SOURCE =
  // shell and aspect nouns
  'approach aspect case choice convention definition detail example format formatting guideline guidelines handling idea ' +
  'comparison issue layout length level library manner management method mode name naming option order pattern plan practice ' +
  'principle problem procedure process question requirement scheme selection setup size solution standard step strategy ' +
  'framework platform structure style tool tooling topic type usage version ' +
  // aspects a subject is measured or placed by, like "size" and "level"
  'capability degree location percentage proportion range ratio system ' +
  // light verbs
  'add apply choose chose chosen create define deal dealt follow generate give gave given handle keep kept look make made manage ' +
  'pick put set show shown take took taken work write wrote written';
/** Chinese general nouns and light verbs, as whole segmenter words. */
const GENERIC_ZH_SOURCE =
  '方案 策略 方式 方法 做法 写法 用法 办法 流程 步骤 过程 规范 标准 格式 风格 样式 版本 类型 模式 级别 顺序 大小 长度 数量 ' +
  '设置 选项 工具 框架 平台 语言 处理 管理 定义 生成 使用 选择 机制 细节 命名 名称 名字 例子 示例 思路 选型 对比 比较 场景 ' +
  // aspects a subject is measured or placed by, like 大小 and 级别
  '比例 位置 程度 能力 系统 ' +
  // light verbs, like "add apply create follow keep make put show write"
  '引入 采用 添加 增加 创建 编写 修改 遵循 遵守 保持 显示 展示 应用 给出 进行 实现 放在 放到 存放 放置';
/** A general word weighs this share of its IDF. */
export const GENERIC_WEIGHT = 0.5;
/** A character bigram the segmenter did not find as a word (a guess at one) weighs this share of its IDF. */
export const GUESS_WEIGHT = 0.5;
/**
 * A guess no memory has: a lone character paired with its neighbour word ("订单|号" → 单号, "支付|对|账" → 对账) is
 * as often a compound no memory knows as a pair across two words ("文件|放"), and so are two single characters
 * alone between words ("飞|书"): they keep half their weight. A pair inside a longer run of single characters
 * ("做|鉴|权" → 做鉴, 鉴权) is most often no word at all, and no memory having it says nothing about the subject: it
 * keeps none.
 */
export const UNKNOWN_PAIR_SHARE = 0.5;
export const UNKNOWN_RUN_SHARE = 0;

/** Marks a concept row of the glossary (normalized text never holds '='). */
export const CONCEPT_MARK = '=';

interface LatinGlossaryEntry {
  /** The form's words, stemmed; `caps` when the form counts only written in capitals ("IT"). */
  tokens: { stem: string; caps: string | null }[];
  concept: string;
}

/** The glossary indexes and the general words, built on first use (a start that never segments skips them). */
interface WordIndexes {
  /** English glossary forms by their first word, longest first. */
  latin: Map<string, LatinGlossaryEntry[]>;
  /** Chinese glossary forms by their first character, longest first. */
  cjk: Map<string, { form: string; concept: string }[]>;
  generic: ReadonlySet<string>;
}

let indexes: WordIndexes | undefined;

function wordIndexes(): WordIndexes {
  if (indexes) return indexes;
  const latin = new Map<string, LatinGlossaryEntry[]>();
  const cjk = new Map<string, { form: string; concept: string }[]>();
  for (const forms of GLOSSARY) {
    const concept = CONCEPT_MARK + forms[0]!.toLowerCase().replace(/[\s-]+/gu, '_');
    for (const raw of forms) {
      const form = raw.normalize('NFKC');
      if (CJK_START.test(form)) {
        const list = cjk.get(form[0]!) ?? cjk.set(form[0]!, []).get(form[0]!)!;
        list.push({ form, concept });
        continue;
      }
      const caps = /^\p{Lu}{2,}$/u.test(form) ? form : null;
      const tokens = form
        .split(/[\s\-_./]+/u)
        .filter((w) => w.length > 0)
        .map((w) => ({ stem: stemWord(w.toLowerCase()), caps }));
      const list = latin.get(tokens[0]!.stem) ?? latin.set(tokens[0]!.stem, []).get(tokens[0]!.stem)!;
      list.push({ tokens, concept });
    }
  }
  // Longest first; a stable sort keeps the glossary's order among forms of one length.
  for (const list of cjk.values()) list.sort((a, b) => b.form.length - a.form.length);
  for (const list of latin.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  const generic = new Set([...GENERIC_EN_SOURCE.split(' ').map(stemWord), ...GENERIC_ZH_SOURCE.split(' ')]);
  indexes = { latin, cjk, generic };
  return indexes;
}

// Single Chinese characters that are function words: never joined into a bigram. The interrogatives standing
// alone (哪, 啥, 谁, 咋: "which, what, who, how") ask like 哪个 and 什么 ("一周里哪几天", "放哪"), and so does the
// modal 该 ("should", like 应该: "日志该怎么打"). The light verbs standing alone, 放 and 走 ("put", "go by": "文件放哪",
// "部署走什么流程") and 加, 写, 打, 搞, 弄 ("add", "write", "make": "要不要加索引", "日志怎么打"), say no more than "put",
// "use" and "make" do; inside a word (存放, 走查, 打包) they are not alone.
const ZH_FUNCTION_CHARS = new Set(
  Array.from('的了是在和与或也都就要会能把被让给对向从到吗呢吧啊呀嘛哦么着过而及其之以于为这那有没不很还又再用做哪啥谁咋该走放加写打搞弄'),
);
// A word made of function characters only ("都要", "就是") is a function word; a negation ("不要", "没有") says something.
function functionWord(word: string): boolean {
  return Array.from(word).every((c) => ZH_FUNCTION_CHARS.has(c) && c !== '不' && c !== '没');
}
// Localizers and words of time order standing alone ("日志|里", "举例|时", "库|前|先"): "in, on, under, before,
// after, when, first", never a bigram of their own (inside a word, such as 时间 or 前端, they are not alone).
const ZH_LOCALIZER_CHARS = new Set(Array.from('里上下中内外间边前后时先'));

/** A query word and the indexed forms that count as it. */
export interface WordGroup {
  /** The word as indexed (stemmed, folded). */
  term: string;
  /** Other indexed forms that stand for the same word, such as an identifier's joined form. */
  alternatives: string[];
  /** The unstemmed Latin spellings one typo away from which still count (the word, an identifier's joined form). */
  spellings: string[];
  /** A lone Chinese character paired with its neighbour ("数据|库" → 据库): a match, but not a word of a phrase. */
  paired?: boolean;
  /**
   * A character bigram where the segmenter found single characters ("鉴|权" → 鉴权, "做|鉴" → 做鉴): a guess at a
   * word, weighing GUESS_WEIGHT of its IDF.
   */
  guess?: boolean;
  /**
   * The share of its weight a word keeps when no memory has it (an unknown word weighs like the rarest known
   * one): 1 for a word; for a guess UNKNOWN_PAIR_SHARE or UNKNOWN_RUN_SHARE (see there).
   */
  unknownShare: number;
  /** The identifier this word is a part of ("react-native-svg"): a name matches only with all its parts. */
  identifier?: string;
  /**
   * A part of an identifier another part of which is no word ("sql" of MySQL, whose "My" is a stop word): the
   * parts left do not say the name, so a query matches it only whole (the item side indexes both).
   */
  partial?: boolean;
  /** The share of its IDF the word weighs in a query: GUESS_WEIGHT for a guess, GENERIC_WEIGHT for a general word, else 1. */
  weight: number;
  /**
   * The word as written, case-folded (an English word before stemming), whose frequency in the language says
   * how much an unknown word weighs (shared/word-frequency); absent for the parts of an identifier (a name) and
   * for glossary concepts.
   */
  surface?: string;
}

/**
 * Light English stemming: plurals, -ing, -ed and a final -e, so "tests", "testing" and "tested" meet "test"
 * and "caching" meets "cache". Deliberately light (no Porter suffix stripping): "general" and "generate"
 * stay apart. Words with digits or shorter than 4 letters are left alone.
 */
export function stemWord(word: string): string {
  // Short plurals of abbreviations: "ids", "prs", "dbs" (a vowel before the s is no plural: "gas", "bus").
  if (word.length === 3 && /^[a-z][b-df-hj-np-tv-z]s$/u.test(word)) return word.slice(0, 2);
  if (word.length < 4 || /\d/u.test(word)) return word;
  let w = word;
  if (w.endsWith('isation') || w.endsWith('isations')) w = w.replace(/isations?$/u, 'ization');
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ss|sh|ch|x|z|o)es$/u.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is|as|os)$/u.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length >= 6 && STEM_VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length >= 5 && !w.endsWith('eed') && STEM_VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  // British spellings meet American ones: "vectorising" / "vectorizing", "behaviour" / "behavior".
  if (w.endsWith('is') && w.length >= 6) w = `${w.slice(0, -2)}iz`;
  else if (w.endsWith('our') && w.length >= 6) w = `${w.slice(0, -3)}or`;
  return w;
}

// A suffix is only stripped from a stem that keeps a vowel: "spring", "string" and "shred" are words, not spr-ing.
const STEM_VOWEL = /[aeiouy]/u;

function undouble(w: string): string {
  return /([b-df-hj-km-np-rtv-z])\1$/u.test(w) && !/(?:ll|ss|zz)$/u.test(w) ? w.slice(0, -1) : w;
}

/**
 * Splits an identifier segment at case changes: "rateLimiter" → rate, Limiter; "HTTPServer" → HTTP, Server. The
 * plural of an acronym is one word: "DAGs", "APIs", "IDs" (not DA + Gs).
 */
function camelParts(segment: string): string[] {
  return segment
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}(?!s$)\p{Ll})/gu, '$1 $2')
    .split(' ')
    .filter((p) => p.length > 0);
}

// The plural of an acronym ("APIs", "DAGs", "PRs") is the acronym: the stemmer keeps "apis" as it keeps "basis".
function singularAcronym(raw: string): string {
  return /^\p{Lu}{2,}s$/u.test(raw) ? raw.slice(0, -1) : raw;
}

function latinWord(raw: string, amongCjk = false): string | null {
  const word = raw.toLowerCase();
  // An acronym written in capitals is a name, not a function word: "IT" (integration tests), "US", "OR".
  const acronym = /^\p{Lu}{2,}$/u.test(raw);
  return word.length < 2 || (EN_STOPWORDS.has(word) && !acronym && !amongCjk) ? null : stemWord(word);
}

/** A Latin word of the text as written and stemmed, with the group it gave (-1: a stop word), for the glossary. */
interface LatinToken {
  raw: string;
  stem: string;
  group: number;
}

/** The words of one identifier chunk: its parts, each standing also for the joined form. */
function identifierGroups(chunk: string, out: WordGroup[], tokens: LatinToken[], amongCjk = false): void {
  // A version number is one word: "5.7" and "8.0" are not the digits 5, 7, 8 and 0 (each dropped as too short).
  if (VERSION_NUMBER.test(chunk)) {
    tokens.push({ raw: chunk, stem: chunk, group: out.length });
    out.push({ term: chunk, alternatives: [], spellings: [], weight: 1, unknownShare: 1 });
    return;
  }
  // A compound's last word that says how (TaskFlow-style, trunk-based, type-safe) is a word of its own, not a part of the name.
  // So is a participle after a hyphen, written in small letters (TaskFlow-decorated, schema-generated): it says what
  // is done with the name.
  // A negation before a hyphen (non-idempotent, non-blocking) is a word of its own, and so is what it negates.
  const affix =
    /^(.+)-(style|based|like|driven|related|specific|aware|friendly|safe|only|first|free|wide)$/iu.exec(chunk) ??
    /^(.+)-(\p{Ll}{3,}(?:ed|ing))$/u.exec(chunk) ??
    /^(non)-(\p{L}[\p{L}\p{N}]+)$/iu.exec(chunk);
  if (affix) {
    identifierGroups(affix[1]!, out, tokens);
    identifierGroups(affix[2]!, out, tokens);
    return;
  }
  const parts = chunk.split(SEPARATORS).flatMap(camelParts).map(singularAcronym);
  const whole = parts.length > 1 && parts.every((p) => /\p{L}/u.test(p)) ? parts.join('').toLowerCase() : null;
  const joined = whole === null ? null : stemWord(whole);
  const first = out.length;
  // A part of a camelCase name that is no word ("My" of MySQL, "i" of iOS) leaves the name in the other parts: only
  // the whole says it.
  // Written with separators ("down-migrations", "on-call") the parts are words of their own.
  const partial = joined !== null && !SEPARATORS.test(chunk) && parts.some((p) => latinWord(p) === null);
  for (const part of parts) {
    const word = latinWord(part, amongCjk && parts.length === 1);
    tokens.push({ raw: part, stem: stemWord(part.toLowerCase()), group: word === null ? -1 : out.length });
    if (word === null) continue;
    const spellings = [part.toLowerCase(), ...(whole ? [whole] : [])].filter((w) => /^\p{Script=Latin}+$/u.test(w));
    out.push({
      term: word,
      alternatives: joined && joined !== word ? [joined] : [],
      spellings,
      weight: joined === null && wordIndexes().generic.has(word) ? GENERIC_WEIGHT : 1,
      unknownShare: 1,
      ...(joined ? { identifier: joined } : { surface: part.toLowerCase() }),
      ...(partial ? { partial } : {}),
    });
  }
  // A glossary word written as one identifier: "E2E", "pub-sub", "e-mail".
  const concept =
    parts.length > 1
      ? wordIndexes()
          .latin.get(stemWord(parts.join('').toLowerCase()))
          ?.find((e) => e.tokens.length === 1)
      : undefined;
  if (concept && (concept.tokens[0]!.caps === null || concept.tokens[0]!.caps === parts.join(''))) {
    for (let g = first; g < out.length; g += 1) addAlternative(out[g]!, concept.concept);
  }
}

function addAlternative(group: WordGroup, term: string): void {
  if (term !== group.term && !group.alternatives.includes(term)) group.alternatives.push(term);
}

// Words that ask a degree after "how" (English has no single word for 多久, 多少, 多大).
const HOW_DEGREE = new Set('long many much big large small often old far soon fast'.split(' '));
// Units a number is asked in after "how many / how much", like the measure word of 几次, 几天, 几行 ("how many times").
const HOW_MEASURE = new Set(
  'time day hour minute min second sec millisecond ms week month year kind line page step round'.split(' ').map((w) => stemWord(w)),
);

// Stands for a segment of asking (an A-not-A question): a stop word, never paired with.
const ASKING = '\u0000';
// Measure words and units a number is asked in (几次, 几天, 几个 …).
const MEASURES = '个|次|天|年|月|周|号|分钟|小时|秒|毫秒|种|条|位|台|倍|遍|层|步|轮|项|页|行|份';
const MEASURE = new RegExp(`^(?:${MEASURES})$`, 'u');
const HOW_MANY = new RegExp(`^几(?:${MEASURES})$`, 'u');
const WHICH_ONE = new RegExp(`^一(?:${MEASURES})$`, 'u');
// Words of the past a question about an earlier agreement starts with, and the outcomes it asks after.
const PAST_WORDS = new Set(['上次', '上回', '当时', '当初', '之前', '以前', '那次']);
const OUTCOME_WORDS = new Set(['结论', '共识', '定论', '结果']);

// Verbs of talking something over and settling it, after which 过 marks that it happened ("讨论过", "商量过").
const TALK_VERBS = new Set(['讨论', '商量', '商定', '确认', '决定', '约定', '聊', '说', '提', '定', '问']);

/**
 * The segmenter joins the particle 过 after a verb of talking to the next character ("讨论|过分|库|分|表"), a cut that
 * hides the words after it: the particle stands alone, and the character after it starts the next word again.
 */
function experientialParticles(parts: { segment: string; start: number; end: number }[]): typeof parts {
  const out: typeof parts = [];
  for (const [i, part] of parts.entries()) {
    const before = parts[i - 1]?.segment;
    if (part.segment.length === 2 && part.segment.startsWith('过') && before !== undefined && TALK_VERBS.has(before)) {
      out.push(
        { segment: '过', start: part.start, end: part.start + 1 },
        { segment: part.segment[1]!, start: part.start + 1, end: part.end },
      );
    } else out.push(part);
  }
  return out;
}

/** A CJK term with the characters of its run it stands for ([start, end), in code units) and its concepts. */
interface CjkTerm {
  term: string;
  paired: boolean;
  guess: boolean;
  /** Two single characters alone between words ("飞|书"): more often a word than a guess across two. */
  alone?: boolean;
  start: number;
  end: number;
  concepts: string[];
}

/**
 * The words of a CJK run: segmenter words, and character bigrams where it found only single characters. A
 * run of single characters gives its bigrams ("缓|存" → 缓存); a single character between words is paired with
 * the next character on each side ("限|流用" → 限流, "数据|库" → 据库), so the same text gives the same pairs
 * whatever the words around it. The glossary's Chinese forms are found on the segmenter's word boundaries, and
 * every term inside one stands also for its concept.
 */
function cjkTerms(run: string): CjkTerm[] {
  const parts = experientialParticles(
    Array.from(wordSegmenter().segment(run), (s) => ({ segment: s.segment, start: s.index, end: s.index + s.segment.length })),
  );
  const segments = parts.map((p) => p.segment);
  const single = (i: number): boolean =>
    i >= 0 &&
    i < segments.length &&
    Array.from(segments[i]!).length === 1 &&
    !ZH_FUNCTION_CHARS.has(segments[i]!) &&
    !ZH_LOCALIZER_CHARS.has(segments[i]!) &&
    segments[i] !== ASKING;
  // A neighbouring word a lone character may pair with: not a stop word ("用什么库" gives no "么库").
  const word = (i: number): string | null =>
    i >= 0 && i < segments.length && !ZH_STOPWORDS.has(segments[i]!) && segments[i] !== ASKING ? segments[i]! : null;
  // A-not-A questions ("能不能", "要|不要", "可以|不|可以") ask; they say nothing about the subject.
  for (let i = 0; i < segments.length; i += 1) {
    const s = segments[i]!;
    const whole = /^(\p{Script=Han}+)不\1$/u.test(s) || /^(\p{Script=Han})不\1\p{Script=Han}$/u.test(s);
    const split = segments[i + 1] === `不${s}` ? 2 : segments[i + 1] === '不' && segments[i + 2] === s ? 3 : 0;
    if (!whole && split === 0) continue;
    for (let j = i; j < i + Math.max(split, 1); j += 1) segments[j] = ASKING;
    i += Math.max(split, 1) - 1;
  }
  // An earlier outcome after a word of the past asks after what was agreed, like "what did we settle on": "上次的结论",
  // "当时结论". Standing alone it is a subject ("先说结论": the answer's conclusion first).
  for (let i = 0; i < segments.length; i += 1) {
    const before = segments[i - 1] === '的' ? segments[i - 2] : segments[i - 1];
    if (OUTCOME_WORDS.has(segments[i]!) && before !== undefined && PAST_WORDS.has(before)) segments[i] = ASKING;
  }
  // "几" and a measure word ask a number, like 多少: "重试几次", "保留几天", "几|个". "哪" and 一 with a measure word
  // ask which one, like 哪个: "放在哪一层", "哪一|天", "用哪|一种".
  for (let i = 0; i < segments.length; i += 1) {
    if (segments[i] === '哪' && WHICH_ONE.test(segments[i + 1] ?? '')) segments[i + 1] = ASKING;
    else if (segments[i] === '哪一') {
      segments[i] = ASKING;
      if (MEASURE.test(segments[i + 1] ?? '')) segments[i + 1] = ASKING;
    }
    if (HOW_MANY.test(segments[i]!)) segments[i] = ASKING;
    else if (segments[i] === '几' && MEASURE.test(segments[i + 1] ?? '')) {
      segments[i] = ASKING;
      segments[i + 1] = ASKING;
    }
  }
  const out: CjkTerm[] = [];
  const push = (term: string, paired: boolean, start: number, end: number, guess = true): void => {
    out.push({ term, paired, guess, start, end, concepts: [] });
  };
  segments.forEach((segment, i) => {
    const { start, end } = parts[i]!;
    if (segment === ASKING) return;
    if (Array.from(segment).length >= 2) {
      if (!ZH_STOPWORDS.has(segment) && !functionWord(segment)) push(segment, false, start, end, false);
      return;
    }
    if (!single(i)) return;
    // Two single characters that make a stop word ("多|长" → 多长, "多|少") ask, like the word itself.
    // Every pair of single characters is a guess at a word; two alone between words ("飞|书") are more often a
    // word the segmenter does not know than pairs in a longer run are.
    if (single(i + 1) && !ZH_STOPWORDS.has(segment + segments[i + 1]!)) {
      push(segment + segments[i + 1]!, false, start, parts[i + 1]!.end);
      if (!(single(i - 1) || single(i + 2))) out.at(-1)!.alone = true;
    }
    if (single(i - 1) || single(i + 1)) return;
    const before = word(i - 1) === null ? null : Array.from(segments[i - 1]!).at(-1)!;
    const after = word(i + 1) === null ? null : Array.from(segments[i + 1]!)[0]!;
    const pairs = out.length;
    if (before && !ZH_FUNCTION_CHARS.has(before)) push(before + segment, true, start - before.length, end);
    if (after && !ZH_FUNCTION_CHARS.has(after)) push(segment + after, true, start, end + after.length);
    // A character with only function characters beside it is still paired ("支付|对|账" → 对账): dropped, the
    // subject it names would be lost.
    if (out.length === pairs) {
      if (before) push(before + segment, true, start - before.length, end);
      else if (after) push(segment + after, true, start, end + after.length);
    }
  });
  const boundaries = new Set(parts.map((p) => p.end));
  for (const { start } of parts) {
    // The longest form that starts here and ends on a boundary ("生产者" is not "生产").
    const entry = wordIndexes()
      .cjk.get(run[start]!)
      ?.find((e) => run.startsWith(e.form, start) && boundaries.has(start + e.form.length));
    if (!entry) continue;
    const end = start + entry.form.length;
    // A form whose words ask ("上次的结论") names no concept.
    if (parts.some((p, i) => p.start >= start && p.end <= end && segments[i] === ASKING)) continue;
    const inside = out.filter((t) => t.start >= start && t.end <= end);
    if (inside.length === 0) out.push({ term: entry.concept, paired: false, guess: false, start, end, concepts: [] });
    // A glossary form is a word, whatever the segmenter made of it.
    for (const t of inside) t.guess = false;
    for (const t of inside) if (!t.concepts.includes(entry.concept)) t.concepts.push(entry.concept);
  }
  return out;
}

/** The glossary's English forms found in a text's Latin words: each word inside one stands also for its concept. */
function latinConcepts(tokens: (LatinToken | null)[], out: WordGroup[]): void {
  for (let i = 0; i < tokens.length; i += 1) {
    const entries = tokens[i] ? wordIndexes().latin.get(tokens[i]!.stem) : undefined;
    if (!entries) continue;
    const entry = entries.find((e) =>
      e.tokens.every((t, j) => {
        const token = tokens[i + j];
        return token !== null && token !== undefined && token.stem === t.stem && (t.caps === null || token.raw === t.caps);
      }),
    );
    if (!entry) continue;
    const inside = tokens.slice(i, i + entry.tokens.length).filter((t) => t!.group >= 0);
    if (inside.length === 0) out.push({ term: entry.concept, alternatives: [], spellings: [], weight: 1, unknownShare: 1 });
    for (const t of inside) addAlternative(out[t!.group]!, entry.concept);
  }
}

/** The query words of a text, in order, each once (by term). */
export function wordGroups(text: string): WordGroup[] {
  const out: WordGroup[] = [];
  // Latin words in order; null where a CJK run stands between them (a glossary form does not span it).
  const tokens: (LatinToken | null)[] = [];
  const chunks = Array.from(text.normalize('NFKC').matchAll(CHUNK), (m) => m[0]);
  // An English function word standing alone among Chinese words is no function word of the sentence, whose
  // grammar is Chinese: it names something ("前端能写 any 吗", "用 this 还是箭头函数").
  const amongCjk = (i: number): boolean => {
    const [before, after] = [chunks[i - 1], chunks[i + 1]];
    return (before !== undefined || after !== undefined) && [before, after].every((c) => c === undefined || CJK_START.test(c));
  };
  for (const [i, chunk] of chunks.entries()) {
    if (CJK_START.test(chunk)) {
      tokens.push(null);
      for (const { term, paired, guess, concepts, alone } of cjkTerms(chunk)) {
        out.push({
          term,
          alternatives: concepts,
          spellings: [],
          paired,
          ...(guess ? { guess } : {}),
          weight: guess ? GUESS_WEIGHT : wordIndexes().generic.has(term) ? GENERIC_WEIGHT : 1,
          unknownShare: !guess ? 1 : paired || alone ? UNKNOWN_PAIR_SHARE : UNKNOWN_RUN_SHARE,
          surface: term,
        });
      }
    } else {
      const latin: LatinToken[] = [];
      identifierGroups(chunk, out, latin, amongCjk(i));
      tokens.push(...latin);
    }
  }
  latinConcepts(tokens, out);
  // "how long / how many / how big …" asks, like 多久, 多少, 多大: the word after "how" is no subject.
  const asking = new Set<number>();
  tokens.forEach((token, i) => {
    const before = tokens[i - 1];
    if (token && before && token.group >= 0 && before.raw.toLowerCase() === 'how' && HOW_DEGREE.has(token.raw.toLowerCase())) {
      asking.add(token.group);
    }
    // "how many times", "how much time": the unit after the degree asks with it.
    const how = tokens[i - 2];
    if (
      token &&
      before &&
      how &&
      token.group >= 0 &&
      how.raw.toLowerCase() === 'how' &&
      /^(?:many|much)$/u.test(before.raw.toLowerCase()) &&
      HOW_MEASURE.has(token.stem)
    ) {
      asking.add(token.group);
    }
  });
  const seen = new Map<string, WordGroup>();
  for (const [g, group] of out.entries()) {
    if (asking.has(g)) continue;
    const known = seen.get(group.term);
    if (!known) {
      seen.set(group.term, { ...group, alternatives: [...group.alternatives], spellings: [...group.spellings] });
      continue;
    }
    // The word said on its own as well ("MySQL 和 SQL") is a word, not only a part of the name.
    if (known.partial && !group.partial) delete known.partial;
    for (const alt of group.alternatives) if (!known.alternatives.includes(alt)) known.alternatives.push(alt);
    for (const spelling of group.spellings) if (!known.spellings.includes(spelling)) known.spellings.push(spelling);
  }
  return [...seen.values()];
}

/** Every indexed form of a text's words (a word and an identifier's joined form), in order, each once. */
export function indexWords(text: string): string[] {
  const out = new Set<string>();
  for (const group of wordGroups(text)) {
    out.add(group.term);
    for (const alt of group.alternatives) out.add(alt);
  }
  return [...out];
}

/** The unstemmed Latin spellings of a text's words (typo rows are written for these), in order, each once. */
export function spellings(text: string): string[] {
  return [...new Set(wordGroups(text).flatMap((g) => g.spellings))];
}

/**
 * The canonical form of a short text such as a title or an alias: identifiers split, English words stemmed,
 * everything else as normalized. "Integration tests" and "integration test" share it, so do "rateLimiter"
 * and "rate-limiter". Stop words are kept: this is a whole-term form, not a bag of words.
 */
export function canonicalText(text: string): string {
  const out: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(CHUNK)) {
    const chunk = match[0];
    if (CJK_START.test(chunk)) out.push(chunk.toLowerCase());
    else for (const part of chunk.split(SEPARATORS).flatMap(camelParts)) out.push(stemWord(part.toLowerCase()));
  }
  return out.join(' ');
}

/** True when the text starts with a CJK character. */
export function startsCjk(text: string): boolean {
  return CJK_START.test(text);
}

/** One-deletion variants of a word (typo matching: one edit meets one deletion on either side). */
export function deletions(word: string): string[] {
  const chars = Array.from(word);
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i += 1) out.add(chars.slice(0, i).join('') + chars.slice(i + 1).join(''));
  return [...out];
}

/** Marks a phrase row: the words of a short metadata term, as one key (normalized text never holds '^'). */
export const PHRASE_MARK = '^';
/** Metadata terms of this many words at most are indexed as phrases. */
export const MAX_PHRASE_WORDS = 3;

/** The words of a text that make up a phrase: every word but the paired lone characters. */
export function phraseWords(text: string): string[] {
  return phraseUnits(wordGroups(text));
}

/**
 * The words of a phrase among a text's groups: every word but the paired lone characters, and an identifier as
 * one word ("RocketMQ" is one name, not the phrase "rocket mq"), in order, each once.
 */
export function phraseUnits(groups: readonly WordGroup[]): string[] {
  const out: string[] = [];
  for (const g of groups) {
    if (g.paired) continue;
    const unit = g.identifier ?? g.term;
    if (!out.includes(unit)) out.push(unit);
  }
  return out;
}

/** The key of a set of words: marked, each word once, in code-point order, so the order of words does not matter. */
export function phraseKey(words: readonly string[]): string {
  return PHRASE_MARK + [...new Set(words)].sort().join(' ');
}
