/**
 * The words search ranks by (M-7.7), the same on the item side and the query side: Chinese words found by
 * `Intl.Segmenter` (character bigrams only where it finds no word), identifier parts (camelCase,
 * snake_case, kebab-case, dotted names) with their joined form, lightly stemmed English words, and no
 * stop words. Text is NFKC-folded and case-folded first, like every match (M-7.2).
 */

const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
// A CJK run, or an identifier: letters and digits joined by - _ . / (no space between).
const CHUNK = new RegExp(
  `[${CJK_CLASS}]+|(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+(?:[-_./](?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+)*`,
  'gu',
);
const CJK_START = new RegExp(`^[${CJK_CLASS}]`, 'u');
const SEPARATORS = /[-_./]/u;

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
    'anything anyone currently decide decided decision decisions exactly kind know like mean means need needs ' +
    'policy policies prefer preference preferences preferred remember rule rules say said setting settings something ' +
    'supposed tell thing things think use used uses using want wanted wants way ways'
  ).split(' '),
);

/**
 * Chinese function words and words of asking ("用户对分支命名有什么要求": only 分支 and 命名 say what it is about).
 * Matched against whole segmenter words.
 */
export const ZH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    '我们 你们 他们 她们 它们 咱们 自己 这个 那个 这些 那些 这里 那里 这样 那样 这种 那种 什么 怎么 怎样 怎么样 如何 为什么 ' +
    '为何 哪些 哪个 哪里 哪儿 是否 是不是 有没有 可以 可能 应该 需要 一下 一些 一个 一种 还是 或者 以及 然后 因为 所以 如果 ' +
    '但是 不过 而且 并且 没有 不是 就是 只是 还有 现在 时候 关于 对于 其中 之前 之后 以前 时候 已经 一直 目前 当前 ' +
    '用户 要求 规定 规则 偏好 习惯 决定 约定 原则 说过 提过 记得 打算 想要 希望 喜欢 的话 东西 问题 情况 方面 相关 具体 一般 ' +
    '到底 究竟 多少 多久 多长 多大 几个 哪种 哪里 怎么办 什么样 吗 呢 吧 啊 呀 嘛 哦 么'
  ).split(' '),
);

// Single Chinese characters that are function words: never joined into a bigram.
const ZH_FUNCTION_CHARS = new Set(
  Array.from('的了是在和与或也都就要会能把被让给对向从到吗呢吧啊呀嘛哦么着过而及其之以于为这那有没不很还又再用'),
);

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
  /** The identifier this word is a part of ("react-native-svg"): a name matches only with all its parts. */
  identifier?: string;
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
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ss|sh|ch|x|z)es$/u.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is|as|os)$/u.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length >= 6) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length >= 5 && !w.endsWith('eed')) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([b-df-hj-km-np-rtv-z])\1$/u.test(w) && !/(?:ll|ss|zz)$/u.test(w) ? w.slice(0, -1) : w;
}

/** Splits an identifier segment at case changes: "rateLimiter" → rate, Limiter; "HTTPServer" → HTTP, Server. */
function camelParts(segment: string): string[] {
  return segment
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(' ')
    .filter((p) => p.length > 0);
}

function latinWord(raw: string): string | null {
  const word = raw.toLowerCase();
  // An acronym written in capitals is a name, not a function word: "IT" (integration tests), "US", "OR".
  const acronym = /^\p{Lu}{2,}$/u.test(raw);
  return word.length < 2 || (EN_STOPWORDS.has(word) && !acronym) ? null : stemWord(word);
}

/** The words of one identifier chunk: its parts, each standing also for the joined form. */
function identifierGroups(chunk: string, out: WordGroup[]): void {
  const parts = chunk.split(SEPARATORS).flatMap(camelParts);
  const whole = parts.length > 1 && parts.every((p) => /\p{L}/u.test(p)) ? parts.join('').toLowerCase() : null;
  const joined = whole === null ? null : stemWord(whole);
  for (const part of parts) {
    const word = latinWord(part);
    if (word === null) continue;
    const spellings = [part.toLowerCase(), ...(whole ? [whole] : [])].filter((w) => /^\p{Script=Latin}+$/u.test(w));
    out.push({ term: word, alternatives: joined && joined !== word ? [joined] : [], spellings, ...(joined ? { identifier: joined } : {}) });
  }
}

/**
 * The words of a CJK run: segmenter words, and character bigrams where it found only single characters. A
 * run of single characters gives its bigrams ("缓|存" → 缓存); a single character between words is paired with
 * the next character on each side ("限|流用" → 限流, "数据|库" → 据库), so the same text gives the same pairs
 * whatever the words around it.
 */
function cjkTerms(run: string): { term: string; paired: boolean }[] {
  const segments = Array.from(SEGMENTER.segment(run), (s) => s.segment);
  const single = (i: number): boolean =>
    i >= 0 && i < segments.length && Array.from(segments[i]!).length === 1 && !ZH_FUNCTION_CHARS.has(segments[i]!);
  // A neighbouring word a lone character may pair with: not a stop word ("用什么库" gives no "么库").
  const word = (i: number): string | null => (i >= 0 && i < segments.length && !ZH_STOPWORDS.has(segments[i]!) ? segments[i]! : null);
  const out: { term: string; paired: boolean }[] = [];
  segments.forEach((segment, i) => {
    if (Array.from(segment).length >= 2) {
      if (!ZH_STOPWORDS.has(segment)) out.push({ term: segment, paired: false });
      return;
    }
    if (!single(i)) return;
    if (single(i + 1)) out.push({ term: segment + segments[i + 1]!, paired: false });
    if (single(i - 1) || single(i + 1)) return;
    const before = word(i - 1) === null ? null : Array.from(segments[i - 1]!).at(-1)!;
    const after = word(i + 1) === null ? null : Array.from(segments[i + 1]!)[0]!;
    if (before && !ZH_FUNCTION_CHARS.has(before)) out.push({ term: before + segment, paired: true });
    if (after && !ZH_FUNCTION_CHARS.has(after)) out.push({ term: segment + after, paired: true });
  });
  return out;
}

/** The query words of a text, in order, each once (by term). */
export function wordGroups(text: string): WordGroup[] {
  const out: WordGroup[] = [];
  for (const match of text.normalize('NFKC').matchAll(CHUNK)) {
    const chunk = match[0];
    if (CJK_START.test(chunk)) {
      for (const { term, paired } of cjkTerms(chunk)) out.push({ term, alternatives: [], spellings: [], paired });
    } else {
      identifierGroups(chunk, out);
    }
  }
  const seen = new Map<string, WordGroup>();
  for (const group of out) {
    const known = seen.get(group.term);
    if (!known) {
      seen.set(group.term, { ...group, alternatives: [...group.alternatives], spellings: [...group.spellings] });
      continue;
    }
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
  return wordGroups(text)
    .filter((g) => !g.paired)
    .map((g) => g.term);
}

/** The key of a set of words: marked, each word once, in code-point order, so the order of words does not matter. */
export function phraseKey(words: readonly string[]): string {
  return PHRASE_MARK + [...new Set(words)].sort().join(' ');
}
