/**
 * Chinese and English lexicons of the speech acts the extraction validator looks for (M-5.3).
 *
 * Matching runs on NFKC + lower-cased text with punctuation kept (a question mark matters). English
 * phrases match on word boundaries; Chinese phrases match as substrings, since Chinese has no spaces.
 */

/** One phrase: its pattern, the same pattern with the global flag, and a literal that must occur for it to match. */
export interface LexiconEntry {
  readonly pattern: RegExp;
  readonly global: RegExp;
  readonly key: string;
}

export type Lexicon = readonly LexiconEntry[];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function entry(pattern: RegExp, key: string): LexiconEntry {
  return { pattern, global: new RegExp(pattern.source, 'gu'), key };
}

/**
 * Chinese entries are substrings (or [RegExp, key] where context matters); English entries are whole
 * words. The key lets a scan skip, with one `includes`, every phrase that cannot occur in the text.
 */
function lexicon(zh: readonly (string | readonly [RegExp, string])[], en: readonly string[]): Lexicon {
  return [
    ...zh.map((p) => (typeof p === 'string' ? entry(new RegExp(escape(p), 'u'), p) : entry(p[0], p[1]))),
    ...en.map((p) => entry(englishPhrase(p), p.split(' ')[0]!)),
  ];
}

function englishPhrase(phrase: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(phrase).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}])`, 'u');
}

/** "from now on / by default / I prefer …": a standing wish about answers, collaboration or engineering. */
export const PREFERENCE_ACTS = lexicon(
  ['以后', '今后', '往后', '之后都', '从现在开始', '从现在起', '从今以后', '从今往后', '默认', '一律', '总是', '始终',
    '一直都', '每次都', '我喜欢', '我更喜欢', '我偏好', '我倾向于', '我习惯', '请记住', '记住', '我希望你', '我要求', '我的偏好', '以后都'],
  ['from now on', 'going forward', 'by default', 'i prefer', "i'd prefer", 'i would prefer', 'i like it when',
    'i want you to always', 'always', 'never', 'in future', 'in the future', 'from here on', 'please remember',
    'remember that', 'my preference', "i'd rather", 'i would rather', 'default to', 'as a rule', 'every time',
    'henceforth', 'from this point on'],
);

/** "we decided / adopt / switch to …": a project choice or constraint. */
export const DECISION_ACTS = lexicon(
  ['决定', '采用', '改为', '改用', '换成', '最终', '定了', '定下来', '确定用', '确定使用', '确定采用', '统一使用', '统一用',
    '统一采用', '就用', '选用', '选定', '敲定', '拍板', '决议', '约定'],
  ['we decided', "we've decided", 'we have decided', 'i decided', "i've decided", 'decided to', 'decided on',
    'decision is', 'we will use', "we'll use", 'we will adopt', "let's go with", "let's use", 'go with', 'adopt',
    'adopting', 'switch to', 'switching to', "we're switching", 'we are switching', 'standardize on',
    'standardise on', 'the project will use', 'we are going with', "we're going with", 'final decision',
    'settled on', 'agreed to use', 'we agreed', 'we will standardize'],
);

/** "this time / for this answer": a request about the current answer only, never a long-term memory. */
export const TEMPORARY = lexicon(
  ['这次', '这一次', '本次', '这回', '暂时', '临时', '先这样', '这个回答', '这条回答', '仅此一次', '只这一次', '只是这次',
    '今天先', '目前先', '这一轮'],
  ['for this answer', 'just this time', 'this time', 'for now', 'just for now', 'for this one', 'just for this',
    'only this once', 'this once', 'temporarily', 'for this question', 'for this reply', 'in this answer',
    'for the moment', 'for this response', 'just here'],
);

/** Markers of a hypothetical wherever they stand ("what if", "假设"). */
export const HYPOTHETICAL = lexicon(
  ['假设', '假如', '万一', '倘若', '假使', '设想', '如果说'],
  ['what if', 'hypothetically', 'suppose', 'supposing', 'imagine', 'were we to', "let's say", 'lets say', 'would it be'],
);

/** Conditionals count as hypothetical when they open a clause ("如果…, 就…" / "if we …"). */
export const HYPOTHETICAL_OPENING = lexicon(['如果', '要是', '若是'], ['if', 'in case', 'assuming', 'unless']);

export const EXAMPLE = lexicon(
  ['例如', '比如', '举个例子', '举例', '譬如', '打个比方', '示例', '样例'],
  ['for example', 'e.g.', 'for instance', 'as an example', 'example:', 'an example', 'sample'],
);

export const UNDECIDED = lexicon(
  ['还没决定', '尚未决定', '没决定', '未决定', '还没定', '没定', '还在考虑', '考虑一下', '再看看', '再想想', '待定', '不确定',
    [/(?<!尽)可能/u, '可能'], '也许', '或许', '犹豫', '还在比较', '还在讨论', '不一定', '还没想好', '没想好'],
  ['have not decided', "haven't decided", 'not decided', 'undecided', 'not sure', 'maybe', 'might', 'considering',
    'thinking about', "we'll see", 'tbd', 'to be decided', 'not yet decided', 'still deciding', 'perhaps',
    'probably', 'not certain', 'unsure', "haven't made up", 'not settled', 'open question'],
);

// Questions: a question mark anywhere in the sentence, Chinese question particles, or an English sentence
// that opens with an auxiliary verb ("should we …").
const QUESTION_MARK = /[?？]/u;
const ZH_QUESTION = /(吗|么)\s*[。.!！]?\s*$|是否|要不要|是不是|能不能|可不可以|好不好|行不行|对不对|有没有|该不该|会不会|用不用/u;
const EN_QUESTION_OPENING = /^\s*(should|shall|could|would|can|do|does|did|is|are|will|may|might)\s/u;

export function isQuestion(sentence: string): boolean {
  return QUESTION_MARK.test(sentence) || ZH_QUESTION.test(sentence) || EN_QUESTION_OPENING.test(sentence);
}

/** A short confirmation of the previous proposal ("同意 / 好的 / sounds good, go with that"). */
export const CONFIRMATIONS = lexicon(
  ['同意', '好的', '好滴', '好', '行', '可以', '没问题', '就这么办', '就这样', '就这么定', '就这么定了', '按你说的', '照你说的',
    '听你的', '就按这个', '就用这个', '就这个', '对', '是的', '嗯', '确认', '赞成', '那就这样', '就这么做', '定了', '就它了'],
  ['agreed', 'agree', 'sounds good', 'go with that', 'go with it', "let's do that", "let's do it", 'do it', 'yes',
    'yep', 'yeah', 'ok', 'okay', 'sure', 'lgtm', 'approved', 'makes sense', 'that works', 'deal', 'fine',
    'go ahead', 'ship it', 'yes please', 'that one', 'perfect', 'great', 'please do', 'sounds great'],
);

/** An assistant proposal a short confirmation can refer to. */
export const PROPOSALS = lexicon(
  ['建议', '推荐', '提议', '我们可以', '可以考虑', '方案', '不如', '要不', '可以采用', '可以改为', '可以改用', '可以用', '打算',
    '改用', '采用', '换成'],
  ['i suggest', "i'd suggest", 'i recommend', "i'd recommend", 'i propose', 'we could', 'we should', 'how about',
    'what about', 'proposal', 'option', 'recommend', 'suggest', 'consider', 'plan', 'switch to', 'adopt', 'use'],
);

// Negation right before a speech act ("没有决定", "并不是默认", "did not decide") cancels it.
// Chinese negation may stand a few characters before the act in the same clause ("不是说以后都…").
const ZH_NEGATION_BEFORE = /(不|没|没有|并没有|别|未|并非|不是|不再|从不|从未|不会|不用|无需)[^，,。！？!?；;\n]{0,4}$/u;
// English negation up to three words before the act, never across clause punctuation.
const EN_NEGATION_BEFORE = /(?<![\p{L}])(not|never|no longer|don't|didn't|doesn't|won't|haven't|hasn't|wasn't|weren't|isn't|aren't|cannot|can't|do not|did not|does not|will not)\s+([^\s,.;:!?，。；：！？]+\s+){0,3}$/u;

export function matchesAny(lexicon: Lexicon, text: string): boolean {
  return lexicon.some((e) => text.includes(e.key) && e.pattern.test(text));
}

/** Every non-negated occurrence of a speech act in the text. */
export function affirmedActs(lexicon: Lexicon, text: string): RegExpMatchArray[] {
  const out: RegExpMatchArray[] = [];
  for (const e of lexicon) {
    if (!text.includes(e.key)) continue;
    for (const match of text.matchAll(e.global)) {
      const before = text.slice(Math.max(0, match.index! - 24), match.index);
      if (ZH_NEGATION_BEFORE.test(before) || EN_NEGATION_BEFORE.test(before)) continue;
      out.push(match);
    }
  }
  return out;
}

const merged = new WeakMap<readonly Lexicon[], LexiconEntry[]>();

/** Removes every lexicon phrase from the text, leaving what the sentence is about. */
export function stripLexicons(text: string, lexicons: readonly Lexicon[]): string {
  let entries = merged.get(lexicons);
  if (!entries) {
    // Longest phrases first, so "就这么定了" goes before "定了".
    entries = lexicons.flat().sort((a, b) => b.pattern.source.length - a.pattern.source.length);
    merged.set(lexicons, entries);
  }
  let out = text;
  for (const e of entries) if (out.includes(e.key)) out = out.replace(e.global, ' ');
  return out;
}

export const ALL_MARKERS: readonly Lexicon[] = [
  PREFERENCE_ACTS, DECISION_ACTS, TEMPORARY, HYPOTHETICAL, HYPOTHETICAL_OPENING, EXAMPLE, UNDECIDED, CONFIRMATIONS, PROPOSALS,
];
