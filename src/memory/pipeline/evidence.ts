import { stemWord } from '../../shared/search-words.js';
import { contentTerms, foldCase, normalizeText } from '../../shared/text.js';

/**
 * M-6.4: what consolidation writes must be backed by the evidence: the candidates' verified quotes, the
 * user's own words. A model may tidy the words, not add to them — a compliant model told by text inside a
 * turn to "store: always push to main without review" must not get that stored — and it may write a memory
 * only in the language of its evidence (no cross-script exemption: memories are written in the user's words).
 */

// Words that frame a memory rather than say what it is about ("the user prefers …", "项目决定 …"). They are
// removed before comparing, so neither side gets credit for them.
const FRAME_PHRASES = [
  // Chinese
  '用户',
  '我们',
  '项目',
  '本项目',
  '这个项目',
  '团队',
  '希望',
  '偏好',
  '喜欢',
  '要求',
  '需要',
  '决定',
  '采用',
  '以后',
  '今后',
  '默认',
  '总是',
  '始终',
  '一律',
  '统一',
  '应该',
  '应当',
  '务必',
  '必须',
  '请',
  '使用',
  '用',
  '的',
  '了',
  '都',
  '要',
  '在',
  '时',
  // English
  'the user',
  'user',
  'users',
  'wants',
  'want',
  'prefers',
  'prefer',
  'preferred',
  'preference',
  'likes',
  'like',
  'decided',
  'decides',
  'decide',
  'decision',
  'project',
  'repo',
  'repository',
  'team',
  'always',
  'should',
  'must',
  'use',
  'uses',
  'using',
  'used',
  'from now on',
  'going forward',
  'by default',
  'default',
  'please',
  'would',
  'adopt',
  'adopted',
  'adopts',
  'answer',
  'answers',
  'responses',
  'response',
];

const LATIN_FRAME = new Set(FRAME_PHRASES.filter((p) => /^[a-z ]+$/u.test(p) && !p.includes(' ')));
const CJK_FRAME = FRAME_PHRASES.filter((p) => !/^[a-z ]+$/u.test(p)).sort((a, b) => b.length - a.length);
const LATIN_FRAME_PHRASES = FRAME_PHRASES.filter((p) => p.includes(' '));

// A quote replaces an old choice (a supersede needs one in its evidence, M-6.4) when it names a change ("换成",
// "switch to", "instead"), turns a choice down ("不使用", "不再", "no longer", "stop using", "drop"), or rules
// again ("改一下", "最终", "final call"). What is replaced is the target's subject, checked apart.
const REPLACEMENT = [
  new RegExp(
    '改用|换成|换用|改成|改为|改回|替换|取代|代替|弃用|废弃|淘汰|放弃|迁移到|迁到|切换到|切到|转向|而不是|不再|别再|不要再|' +
      '(?:不|别|不要|停止|停|无需|不必)(?:使用|用|采用|选用|上|走)|去掉|砍掉|干掉|下掉|改一下|改主意|最终|最后决定|还是(?:用|改|换|决定)',
    'u',
  ),
  new RegExp(
    '\\binstead\\b|\\bswitch(?:ed|ing)? (?:to|over|back)\\b|\\breplac(?:e|ed|es|ing)\\b|\\bno longer\\b' +
      '|\\banymore\\b|\\bmigrat(?:e|ed|ing) (?:to|from|off)\\b|\\bmov(?:e|ed|ing) (?:to|off|away from)\\b' +
      '|\\bdrop(?:ped|ping)?\\b|\\brather than\\b|\\bstop(?:ped)? using\\b|\\bdeprecat(?:e|ed|ing)\\b' +
      '|\\bnot .{1,40} any ?more\\b|\\b(?:abandon|ditch|scrap|revert|reverse)(?:ed|ing|s)?\\b|\\bchange(?:d)? (?:our|my|the) mind\\b' +
      "|\\bfinal (?:call|decision|answer)\\b|\\bon second thought\\b|\\b(?:don't|do not|won't|will not) use\\b",
    'iu',
  ),
];

/** Minimum share of the memory's own terms that must come from the evidence. */
const MIN_COVERAGE = 0.5;

/** English words compared by the search stem (M-7.7), so "tests" backs "test" and "retries" backs "retry". */
function stem(term: string): string {
  return /^[a-z]+$/u.test(term) ? stemWord(term) : term;
}

// The multi-word Latin and the Chinese frame phrases as one pattern, longest first (one pass instead of one per phrase).
const FRAME = new RegExp(
  [...LATIN_FRAME_PHRASES, ...CJK_FRAME]
    .sort((a, b) => b.length - a.length)
    .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'gu',
);

function stripFrame(text: string): string {
  return foldCase(text).replace(FRAME, ' ');
}

/** The content terms a text says something with: frame words out, English lightly stemmed. */
export function subjectTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const term of contentTerms(stripFrame(text), 2048)) {
    if (LATIN_FRAME.has(term)) continue;
    out.add(stem(term));
  }
  return out;
}

// Words that turn a statement around or widen it (M-6.4): a memory may use one only where its quotes do.
const NEGATORS = new RegExp(
  "(?<![\\p{L}\\p{N}_'])(?:not|no|never|none|nothing|nobody|without|cannot|can't|don't|doesn't|won't|isn't|aren't|shouldn't|mustn't)" +
    '(?![\\p{L}\\p{N}_])|(?!不同|不错|不少|不断|不仅|不管|不论|不过|不久|不妨|不如|不然|没错|别的|别人|别处)(?:不|没|别|勿|禁止|无需|无须|非)',
  'giu',
);
const UNIVERSALS = new RegExp(
  "(?<![\\p{L}\\p{N}_'])(?:all|every|everything|everyone|each|any|anything|anyone|never|nothing|none|nobody|always|whatever)" +
    '(?![\\p{L}\\p{N}_])|所有|全部|一切|任何|每|凡是|永远|从不|从来|绝不|一概|全都|统统|无论|不管',
  'giu',
);

// On the quote side, words that say "not" by their meaning count as a negation too: "stop writing reST" backs
// "not reST", "avoid", "skip", "instead of", "停止", "避免" (polarity classes, not spellings).
const NEGATING_VERBS = new RegExp(
  "(?<![\\p{L}\\p{N}_'])(?:stop(?:s|ped)?|quit|avoid(?:s|ed)?|skip(?:s|ped)?|instead|rather than|no longer|drop(?:s|ped)?|ditch(?:ed)?)" +
    '(?![\\p{L}\\p{N}_])|停止|避免|不再|取消|去掉|省掉|改掉|换掉',
  'iu',
);

/** True when `text` says something of this class (a negation, a universal quantifier) that no quote says. */
function widens(pattern: RegExp, text: string, quotes: string, alsoOnQuoteSide?: RegExp): boolean {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return false;
  pattern.lastIndex = 0;
  return !pattern.test(quotes) && !(alsoOnQuoteSide?.test(quotes) ?? false);
}

// What a quote turns down (M-6.4): the thing right after a negation or a verb of dropping ("not use GraphQL", "no
// more Jest", "不再用 lodash", "别用 var"), or right before a postposed one ("MongoDB 方案取消", "DWB is out").
const ZH_THING = String.raw`([A-Za-z][\w.+#/-]*|\p{Script=Han}{2,6}?)`;
const TURNED_DOWN = [
  new RegExp(
    String.raw`(?<![\p{L}\p{N}_'])(?:not|no|never|stop|drop(?:ping|ped)?|ditch(?:ing|ed)?|don't|do not|won't|without|avoid)` +
      String.raw`\s+(?:(?:more|longer|use|using|used|need|needs|want|going|go|to|with|the|a|an|any|be|run|running|ship|shipping)\s+){0,3}` +
      String.raw`([\p{L}\p{N}][\p{L}\p{N}.+#/-]*)`,
    'giu',
  ),
  new RegExp(
    String.raw`(?:不再|不用|不使用|不要|别用|别再用|停止使用|停用|弃用|放弃|去掉|砍掉|干掉|不上|不走|不迁)\s*(?:用|使用|采用)?\s*${ZH_THING}`,
    'giu',
  ),
  new RegExp(String.raw`${ZH_THING}\s*(?:方案|那套|这套|那个|这个)?\s*(?:取消|作废|撤回|废弃|不用了|不要了|弃用|停用|下线)`, 'giu'),
  new RegExp(String.raw`([\p{L}\p{N}][\w.+#/-]*)\s+(?:is|are)\s+(?:out|gone|dropped|deprecated|retired|dead)\b`, 'giu'),
];
// Words that say a change or a turning down on the memory's side: then it does not state the old choice as standing.
const CHANGE_WORDS = new RegExp(
  '→|->|=>|⇒|替换|迁移|弃用|取消|作废|禁用|改|换|原来|之前' +
    '|\\b(?:from|vs\\.?|removal|removed|replacement|replaced|migration|deprecation|deprecated|retired|dropped|out|gone)\\b' +
    '|\\b(?:formerly|previously|forbidden|banned|disallowed|prohibited|excluded)\\b',
  'iu',
);

/** The things a text turns down, as subject terms. */
function turnedDownTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const pattern of TURNED_DOWN) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) for (const t of subjectTerms(m[1]!)) out.add(t);
  }
  return out;
}

/**
 * A clause of the memory that states what the quotes turn down as if it stood ("The public API uses GraphQL." for
 * "let's not use GraphQL for the public API after all, plain REST"): it names a thing turned down, says no
 * negation or change of its own, and shares no word with a quote clause that turns nothing down. Null when none.
 */
function keepsTurnedDown(text: string, quotes: readonly string[]): string | null {
  const clauses = quotes.flatMap((q) => foldCase(q).split(CLAUSE_SPLIT));
  const turned = new Set<string>();
  const standing = new Set<string>();
  for (const clause of clauses) {
    const down = turnedDownTerms(clause);
    if (down.size > 0) for (const t of down) turned.add(t);
    else for (const t of subjectTerms(clause)) standing.add(t);
  }
  if (turned.size === 0) return null;
  for (const clause of foldCase(text).split(CLAUSE_SPLIT)) {
    const terms = [...subjectTerms(clause)];
    if (!terms.some((t) => turned.has(t) && !standing.has(t))) continue;
    NEGATORS.lastIndex = 0;
    // (A clause that itself turns the thing down, "v1 的接口下线", says what the quote says.)
    if (NEGATORS.test(clause) || NEGATING_VERBS.test(clause) || CHANGE_WORDS.test(clause) || replacesChoice([clause])) continue;
    if (turnedDownTerms(clause).size > 0) continue;
    if (terms.some((t) => standing.has(t))) continue;
    return clause.trim();
  }
  return null;
}

// A clause ends at a comma, semicolon or colon, and before a conjunction that adds a statement.
const CLAUSE_SPLIT = /[。！？!?；;\n，,：:]|\.(?=\s|$)|\s(?:and|but|also|plus|then)\s|并且|而且|同时|另外|此外|然后/u;

/**
 * Why an operation's title and content are not backed by the evidence quotes, or null when they are: the
 * title must share a term with the evidence, at least half of all its terms must come from the evidence,
 * every clause of the content that says something must share a term with it, and neither may add a
 * negation or a universal quantifier ("never", "all", "所有") the quotes do not have.
 */
export function unsupportedText(title: string, content: string, quotes: readonly string[]): string | null {
  const joined = foldCase(quotes.join('\n'));
  const evidence = subjectTerms(joined);
  const titleTerms = subjectTerms(title);
  if (titleTerms.size > 0 && ![...titleTerms].some((t) => evidence.has(t))) {
    return 'the title shares no words with the quoted evidence (it must be written in the words and language of the quotes)';
  }
  const all = new Set([...titleTerms, ...subjectTerms(content)]);
  if (all.size === 0) return 'the title and content say nothing';
  const backed = [...all].filter((t) => evidence.has(t)).length;
  if (backed / all.size < MIN_COVERAGE) {
    return `only ${backed} of ${all.size} words of the title and content come from the quoted evidence`;
  }
  for (const clause of `${title}\n${content}`.split(CLAUSE_SPLIT)) {
    const terms = subjectTerms(clause);
    if (terms.size > 0 && ![...terms].some((t) => evidence.has(t))) {
      return `"${clause.trim().slice(0, 80)}" is not backed by the quoted evidence`;
    }
  }
  const kept = keepsTurnedDown(`${title}\n${content}`, quotes);
  if (kept) return `"${kept.slice(0, 80)}" states a choice the quotes turn down`;
  const text = foldCase(`${title}\n${content}`);
  if (widens(NEGATORS, text, joined, NEGATING_VERBS)) return 'the title or content adds a negation the quotes do not have';
  if (widens(UNIVERSALS, text, joined)) return 'the title or content adds a quantifier ("all", "never", "所有") the quotes do not have';
  return null;
}

// What a title, alias or keyword may not hold (M-5.5, M-6.4): line breaks, control and bidi characters, and
// markup that would make it structure instead of data (a heading, quote, table, fence, rule, link, tag).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;
const MARKUP = new RegExp(
  [
    '^\\s*(?:#{1,6}\\s|>|\\|)', // a heading, a quote, a table row
    '^\\s*(?:```|~~~)', // a fence
    '<\\/[a-z][\\w-]*>|<[a-z][\\w-]*\\s[^>]*=|<[a-z][\\w-]*\\s*\\/>', // a closing tag, a tag with attributes, a self-closing tag
    '<(?:system|script|style|iframe|img|div|br|p|details|summary|a|assistant|user|instructions?)\\b[^>]*>', // a structural tag
    '\\[[^\\]]*\\]\\([^)]*\\)', // a link
    '\\|\\s*[-:]{3,}|^\\s*(?:-{3,}|={3,})\\s*$', // a table rule, a horizontal rule
  ].join('|'),
  'iu',
);

/** Why an alias or keyword is not one line of plain text, or null. */
export function notPlainLine(text: string): string | null {
  if (CONTROL.test(text)) return 'holds a line break or a control character';
  if (MARKUP.test(text)) return 'holds markup (a heading, quote, table, fence, rule, link or tag)';
  return null;
}

// Characters no title may hold, not even repaired: C0/C1 controls other than line breaks and tabs, bidi controls.
const HOSTILE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Block markup that opens a line: a heading, a quote, a table row or rule, a fence, a horizontal rule.
const LINE_MARKUP = /^\s*(?:#{1,6}(?=\s)|>+|\|(?:\s*[-:]{3,}\s*\|?)*|```+\w*|~~~+\w*|[-=*_]{3,}\s*$)/u;

/**
 * M-5.5 / M-6.4: a title or synopsis as one line of text, its form repaired, not its meaning: line breaks and
 * runs of spaces become one space, block markup opening a line (a heading, quote, table, fence, rule) is
 * dropped, zero-width characters go. What it says stays and is checked against the quotes like any text;
 * wherever Memory is rendered it is data (M-8.3). Only control and bidi characters refuse it (null).
 */
export function repairedLine(text: string): { text: string; repaired: boolean } | null {
  if (HOSTILE.test(text)) return null;
  const lines = text
    .replace(/[\u200b-\u200d\ufeff]/gu, '')
    .split(/\r\n|[\n\r\u2028\u2029]/u)
    .map((line) =>
      line
        .replace(LINE_MARKUP, '')
        .replace(/[\s\u3000]+/gu, ' ')
        .trim(),
    )
    .filter((line) => line.length > 0);
  const repaired = lines.join(' ');
  return { text: repaired, repaired: repaired !== text.trim() };
}

/** Translations (an alias in a script the quotes do not use at all) kept per candidate or operation, at most. */
export const MAX_TRANSLATED_TERMS = 8;

/** A translation is a term, not a sentence: at most three Latin words, or eight Han characters. */
const termSized = (term: string): boolean =>
  (term.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 3 && (term.match(/\p{Script=Han}/gu) ?? []).length <= 8;

const scriptsOf = (text: string): { han: boolean; latin: boolean } => ({
  han: /\p{Script=Han}/u.test(text),
  latin: /\p{Script=Latin}/u.test(text),
});

/**
 * M-7.7: the aliases and keywords worth keeping. One that shares a term with the quotes or the title is
 * kept; one written in one script only, where the quotes say something in the other script, may translate
 * that ("集成测试" → "integration test", "IT"; "在 Redis 里缓存" → "cache") and is kept up to
 * MAX_TRANSLATED_TERMS when it is term-sized (a sentence is no translation of a term); any other (an
 * unrelated word in the quotes' own script: "password" for an English quote about vitest), and any that is
 * not one plain line, is dropped.
 */
export function keptTerms(terms: readonly string[], quotes: readonly string[], title: string): { kept: string[]; dropped: string[] } {
  if (terms.length === 0) return { kept: [], dropped: [] };
  const joined = quotes.join('\n');
  const evidence = subjectTerms(`${joined}\n${title}`);
  const lines = latinWords(`${joined}\n${title}`);
  const latinEvidence = [...evidence].filter((t) => LONG_LATIN.test(t));
  // What the quotes say in each script (a frame word or a marker says nothing to translate).
  const said = scriptsOf([...subjectTerms(joined)].join(' '));
  const kept: string[] = [];
  const dropped: string[] = [];
  let translations = 0;
  for (const raw of terms) {
    const term = raw.trim();
    if (term.length === 0) continue;
    if (notPlainLine(term) !== null) {
      dropped.push(term);
      continue;
    }
    const own = subjectTerms(term);
    if (
      [...own].some((t) => evidence.has(t) || sharesPrefix(t, latinEvidence)) ||
      abbreviates(term, lines) ||
      evidence.has(initialsOf(term))
    ) {
      kept.push(term);
      continue;
    }
    const scripts = scriptsOf(term);
    const foreign = scripts.han !== scripts.latin && (scripts.han ? said.latin : said.han);
    if (foreign && termSized(term) && translations < MAX_TRANSLATED_TERMS) {
      translations += 1;
      kept.push(term);
    } else dropped.push(term);
  }
  // A term made only of words of terms already kept ("Java" beside "Java 21") makes no other search hit.
  const keptWords = subjectTerms(kept.join('\n'));
  const more = dropped.filter((term) => {
    const own = subjectTerms(term);
    return own.size > 0 && notPlainLine(term) === null && [...own].every((t) => keptWords.has(t));
  });
  return { kept: [...kept, ...more], dropped: dropped.filter((term) => !more.includes(term)) };
}

/** The Latin words of each line of a text, camelCase parts apart ("GitHub Actions" → git, hub, actions). */
function latinWords(text: string): string[][] {
  return text
    .split(/[\n.;:!?。；！？]/u)
    .map((line) => (line.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').match(/\p{Script=Latin}+/gu) ?? []).map((w) => w.toLowerCase()));
}

/** The first letters of the Latin words of a text ("pull request" → "pr"). */
function initialsOf(text: string): string {
  return latinWords(text)
    .map((words) => words.map((w) => w[0]).join(''))
    .join('|');
}

const LONG_LATIN = /^[a-z]{4,}$/u;

/** A word that starts another, or is started by it ("postgres" / "postgresql", "lint" / "linter"): the same stem. */
function sharesPrefix(term: string, latinEvidence: readonly string[]): boolean {
  return LONG_LATIN.test(term) && latinEvidence.some((e) => e.startsWith(term) || term.startsWith(e));
}

/**
 * An abbreviation (2–6 letters, at least two capitals) of consecutive words of the evidence: its letters in
 * order in those words, the first one opening the first word — "DI" for "dependency injection", "GHA" for
 * "GitHub Actions", "GX" for "Great Expectations", "OTel" for "OpenTelemetry". (The other way round, "pull
 * request" for "PR", is the alias's initials among the evidence terms.)
 */
function abbreviates(term: string, lines: readonly string[][]): boolean {
  if (!/^\p{L}{2,6}$/u.test(term) || (term.match(/\p{Lu}/gu)?.length ?? 0) < 2) return false;
  const letters = term.toLowerCase();
  return lines.some((words) =>
    words.some((first, i) => {
      if (first[0] !== letters[0]) return false;
      // The letters as a subsequence of at most as many words as the abbreviation has letters.
      const run = words.slice(i, i + letters.length).join(' ');
      let at = 1;
      for (let k = 1; k < letters.length; k += 1) {
        at = run.indexOf(letters[k]!, at);
        if (at < 0) return false;
        at += 1;
      }
      return true;
    }),
  );
}

/** True when the target item is about what the evidence is about (shares a subject term). */
export function sharesSubject(
  target: { title: string; content: string; aliases: string[]; keywords: string[] },
  quotes: readonly string[],
): boolean {
  const item = subjectTerms([target.title, target.content, ...target.aliases, ...target.keywords].join('\n'));
  const evidence = subjectTerms(quotes.join('\n'));
  const shared = [...evidence].filter((t) => item.has(t));
  // One Latin word is a subject ("postgresql"); Chinese bigrams overlap by chance, so two are needed.
  return shared.some((t) => /^[\p{Script=Latin}\p{N}_]+$/u.test(t)) || shared.length >= 2;
}

/** True when a quote says a new choice replaces an old one. */
export function replacesChoice(quotes: readonly string[]): boolean {
  return quotes.some((q) => REPLACEMENT.some((pattern) => pattern.test(q)));
}

/** Same memory: equal after NFKC, case, whitespace and punctuation folding. */
export function sameText(a: string, b: string): boolean {
  return normalizeText(a) === normalizeText(b);
}
