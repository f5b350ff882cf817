import { SHAPE } from './lexicon.js';
import { HAN, P, typos } from './phrases.js';
import { tagged } from './pos.js';
import type { Sentence } from './sentence.js';
import { type Hit, matchesOf, Phrases, Span } from './words.js';

/**
 * Evidence for a standing act from the shape of a clause (M-5.6), where no marker word names it: the main
 * predicate's mood (imperative, prohibitive, deontic modal, first-person-plural commitment) and the clause's
 * scope (a time scope, a universal or generic noun phrase, a condition clause before it) — closed word
 * classes and, for Chinese, the part-of-speech tags of pos.ts. Strong evidence is a mood with a scope; weak
 * evidence a mood alone ("中文回答。": held for the user). A clause that names one thing in particular is a
 * task, not a rule, and gives none.
 */

const C = {
  prohibitive: new Phrases(SHAPE.prohibitive, 'either'),
  // With the common typos of its words ("defualt", "alwasy"), as the marker lexicon has them.
  time: new Phrases({ zh: [...SHAPE.time.zh, ...typos(SHAPE.time).zh], en: [...SHAPE.time.en, ...typos(SHAPE.time).en] }, 'either'),
  repetition: new Phrases(SHAPE.repetition, 'either'),
  universal: new Phrases(SHAPE.universal, 'either'),
  condition: new Phrases(SHAPE.condition, 'either'),
  commitment: new Phrases(SHAPE.commitment, 'either'),
  exclusive: new Phrases(SHAPE.exclusive, 'either'),
  particular: new Phrases(SHAPE.particular, 'either'),
};
const NOT_COMMITTED = new Set(SHAPE.notCommitted);
const EN_NOT_VERBS = new Set(SHAPE.enNotVerbs);
const EN_LEADS = new Set(SHAPE.enImperativeLeads);
const ZH_SUBJECTS = new Set(SHAPE.zhSubjects);
const EN_PROJECT = new Set(SHAPE.enProjectNouns);
const ZH_PERFECTIVE = SHAPE.zhPerfective;
const ZH_COPULAS = new Set(SHAPE.zhCopulas);
const ZH_TIME = new Set(SHAPE.time.zh);
const ZH_PREDICTIVE = new Set(SHAPE.zhPredictive);
const UNIVERSAL_ZH = new Set(SHAPE.universal.zh);
const EN_BE = new Set(SHAPE.enBe);
const ANAPHORIC = new Set(SHAPE.anaphoric);

// A name of one thing of the code: a file, a path, camelCase, snake_case, inline code.
const FILE_EXTENSIONS = 'ya?ml|json|gradle|java|kt|py|tsx?|jsx?|go|rs|xml|toml|md|sql|sh|properties|conf|lock|env';
const CODE_THING = new RegExp(`[\\w-]+\\.(?:${FILE_EXTENSIONS})\\b|(?:^|\\s)[\\w.-]+/[\\w./-]+|\`[^\`]+\``, 'u');
const CODE_NAME = /(?<![\p{L}])(?:[a-z]+[A-Z][A-Za-z0-9]*|[a-z0-9]+_[a-z0-9_]+)(?![\p{L}])/u;

export type Mood = 'prohibitive' | 'deontic' | 'imperative' | 'commitment' | 'volitional';

// A first person, an emphatic or frequency adverb at most, and a verb of wanting (closed classes).
const VOLITION = new RegExp(
  '(?<![\\p{L}])i\\s+(?:(?:do|really|always|generally|usually|still)\\s+)?(?:want|prefer|like)\\b' +
    // "I want to know why …" asks something now.
    '(?!\\s+to\\s+(?:know|see|ask|check|understand))',
  'u',
);

export interface ShapeEvidence {
  mood: Mood;
  strong: boolean;
  /** Where the mood is read: the hit that stands for the act. */
  hit: Hit;
  clause: number;
}

const at = (s: Sentence, clause: number, offset: number, text: string): Hit => {
  const index = s.clauses[clause]!.start + offset;
  return { index, end: index + text.length, text };
};

/** The first word of an English clause after its leads, with its offset, or null. */
function englishHead(text: string): { word: string; offset: number } | null {
  for (const m of matchesOf(/[a-z][a-z'-]*/gu, text)) {
    if (EN_LEADS.has(m[0])) continue;
    if (m.index > 0 && /[\p{L}\p{N}]/u.test(text.slice(0, m.index).replace(/\b(?:please|pls|and|then|also|so|just|ok|okay)\b/gu, ''))) {
      // Something other than a lead stands before it.
      return { word: '', offset: m.index };
    }
    return { word: m[0], offset: m.index };
  }
  return null;
}

/** An English clause that opens with a bare verb ("split it before showing me", "say so instead of guessing"). */
function englishImperative(text: string): { word: string; offset: number } | null {
  const head = englishHead(text);
  if (!head || head.word === '' || EN_NOT_VERBS.has(head.word)) return null;
  const w = head.word;
  if (/ing$|ed$/u.test(w) || (/[^s]s$/u.test(w) && w.length > 3)) return null;
  // ("mix.exs deps:", "package.json scripts:": a word before a dot and letters is a file's name, no verb.)
  if (/^\.[a-z]/u.test(text.slice(head.offset + w.length))) return null;
  // A verb is followed by an object or a particle: a lone noun ("ESM only") is no imperative.
  const after = text.slice(head.offset + w.length).trim();
  if (after.length === 0) return null;
  return head;
}

/** A Chinese clause whose first word of content is its verb: no pronoun or name as the subject before it. */
function chineseImperative(text: string): { word: string; offset: number } | null {
  const tags = tagged(text);
  if (!tags) return null;
  let offset = 0;
  let nouns = 0;
  let generic = false;
  for (let k = 0; k < tags.length; k += 1) {
    const t = tags[k]!;
    const here = text.indexOf(t.word, offset);
    offset = here >= 0 ? here + t.word.length : offset;
    if (/^[\p{P}\p{S}\s]+$/u.test(t.word)) continue;
    if (ZH_SUBJECTS.has(t.word) || t.tag.startsWith('nr')) return null;
    // "默认…", "统一…" before the verb are its scope, not the verb.
    if (ZH_TIME.has(t.word)) continue;
    if (UNIVERSAL_ZH.has(t.word)) generic = true;
    // "Go 的 map …": a noun phrase with 的 before the verb is a subject described — unless it is generic
    // ("新写的模块都…": every thing of a kind).
    if (t.tag === 'uj') {
      if (!generic) return null;
      continue;
    }
    if (t.tag.startsWith('v') && t.tag !== 'vn') {
      // A verb right before 的 belongs to a relative clause of the topic ("新写的模块").
      // … and one right before 都/也 is the topic mis-tagged ("所有接口都…"): the predicate comes after.
      if (tags[k + 1]?.tag === 'uj' || ['都', '也'].includes(tags[k + 1]?.word ?? '')) {
        nouns += 1;
        continue;
      }
      if (ZH_COPULAS.has(t.word) || ZH_PREDICTIVE.has(t.word)) return null;
      if (['不', '没'].includes(tags[k - 1]?.word ?? '')) return null;
      // A negation before a later verb of the clause makes it a negative statement (a prohibition opens with its word).
      if (tags.slice(k + 1).some((n) => n.word === '不' || n.word === '没')) return null;
      return { word: t.word, offset: here };
    }
    if ((t.tag === 'a' || t.tag === 'b') && UNIVERSAL_ZH.has(t.word)) continue;
    // Time and place words, adverbs, prepositions and measure words may open an imperative ("以后先…", "给我…").
    if (['f', 't', 'd', 'ad', 'p', 'm', 'q', 'c', 'x', 'eng', 'uj', 'ul', 's'].includes(t.tag)) continue;
    // A short topic may stand before the verb ("魔法值抽常量", "中文回答").
    if ((t.tag.startsWith('n') || t.tag === 'vn' || t.tag === 'l' || t.tag === 'j' || t.tag === 'i') && nouns < 3) {
      nouns += 1;
      continue;
    }
    if (t.word === '你') continue;
    return null;
  }
  return null;
}

/**
 * Where the main clause starts inside a Chinese condition clause with no comma ("碰到…的命令先停下来问我"): at an
 * adverb of the consequence after the condition's words; 0 for a clause that is no condition, -1 for a
 * condition with no main clause in it.
 */
function conditionMain(text: string): number {
  if (!HAN.test(text)) return -1;
  const m = CONSEQUENCE_ADVERB.exec(text.slice(2));
  return m ? m.index + 2 : -1;
}
const CONSEQUENCE_ADVERB = new RegExp(`(?<=[\\p{Script=Han}\\w)）]\\s*)(?:${SHAPE.consequenceAdverbs.join('|')})(?=\\p{Script=Han})`, 'u');

/**
 * True when the clause names one thing in particular (a deictic, a file, an identifier) and no scope. With
 * `anaphoric` (a condition clause before it), a pronoun points back at the condition's words.
 */
export function particularClause(s: Sentence, raw: string, from: number, to: number, anaphoric = false): boolean {
  const text = s.span.text.slice(from, to);
  const span = new Span(text);
  const deictic = C.particular.find(span).some((h) => {
    if (anaphoric && ANAPHORIC.has(h.text)) return false;
    if (!/^this$|^these$/u.test(h.text)) return true;
    const next = /^\s+([a-z]+)/u.exec(text.slice(h.end))?.[1];
    return !(next && EN_PROJECT.has(next));
  });
  return deictic || CODE_THING.test(text) || CODE_NAME.test(raw);
}

/** True when the sentence gives the rule a scope: a time scope, a universal noun phrase, a condition clause. */
export const UNIVERSAL_LEAD = new RegExp(
  '^(?:(?:for|with|on|in)\\s+)?(?:any|every|each|all|anything|everything)(?![\\p{L}])(?!\\s+(?:of\\s+)?(?:this|that|these|those|the)\\b)' +
    '|^(?:凡是|凡|所有|任何|每个|每一个)(?!人)',
  'u',
);

// A subject pronoun, a past tense or a perfective: the lead is a clause of its own ("all tests passed, …").
const CLAUSE_OF_ITS_OWN = /(?<![\p{L}'-])(?:i|we|you|they|he|she|it)(?![\p{L}'])|(?<![\p{L}-])[a-z]{2,}ed(?![\p{L}])|了/u;

export function scoped(s: Sentence, clause: number): boolean {
  const inClause = (i: number): boolean => {
    const c = s.clauses[i]!;
    const within = (h: Hit): boolean =>
      h.index >= c.start && h.end <= c.end && !s.hits(P.compounds).some((k) => k.index <= h.index && k.end >= h.end);
    return s.hits(C.time).some(within) || s.hits(P.standing).some(within) || s.hits(C.universal).some(within);
  };
  if (inClause(clause)) return true;
  // The user says it again: it stood before.
  if (s.hits(C.repetition).length > 0) return true;
  // A clause before it that is a condition, or holds nothing but a scope ("以后，", "from now on,"), scopes it.
  for (let i = 0; i < clause; i += 1) {
    if (s.isCondition(i) || C.condition.at(new Span(s.clauseText(i).trim()), 0) !== null) return true;
    if (inClause(i) && C.time.strip(new Span(s.clauseText(i))).replace(/[\s\p{P}]/gu, '').length <= 2) return true;
    // "for anything shader-related, …", "凡是新加的 autoload, …": a clause opened by a universal noun phrase with
    // no verb of its own ranges the rule after it over every such thing.
    if (UNIVERSAL_LEAD.test(s.clauseText(i).trim()) && !CLAUSE_OF_ITS_OWN.test(s.clauseText(i))) return true;
  }
  return C.condition.at(new Span(s.clauseText(clause).trim()), 0) !== null;
}

/** A clause that reads as a description: ends on a perfective particle, or is an English statement with "be". */
function descriptive(text: string): boolean {
  const trimmed = text.replace(/[\s\p{P}]+$/u, '');
  if (HAN.test(trimmed) && ZH_PERFECTIVE.some((p) => trimmed.endsWith(p)) && !/(?:别|不要|不用|不再|不许)/u.test(trimmed)) return true;
  const words = trimmed.match(/[a-z][a-z'-]*/gu) ?? [];
  return words.slice(0, 4).some((w) => EN_BE.has(w)) && !/\b(?:must|should|has to|have to|needs? to|only)\b/u.test(trimmed);
}

/**
 * The strongest shape evidence in the clauses of the quote, or null. `raw` is the sentence's unfolded text
 * (case tells an identifier from a word).
 */
export function shapeEvidence(
  s: Sentence,
  raw: string,
  quoteClauses: ReadonlySet<number>,
  kind: 'user_preference' | 'project_decision',
): ShapeEvidence | null {
  // ('{:phoenix, "~> 1.7"},', "[tool.ruff]": a line opened by a bracket is a line of code, not speech.)
  if (/^\s*[{[<]/u.test(s.span.text)) return null;
  let best: ShapeEvidence | null = null;
  for (let i = 0; i < s.clauses.length; i += 1) {
    if (!quoteClauses.has(i)) continue;
    const c = s.clauses[i]!;
    const text = s.clauseText(i);
    // "碰到需要 sudo 的命令先停下来问我": a Chinese condition may run into its main clause with no comma; the main
    // clause opens with an adverb of the consequence.
    const main = s.isCondition(i) ? conditionMain(text) : 0;
    // "用现成的还是自研": a choice between alternatives is open, not made.
    if (main < 0 || descriptive(text) || /还是/u.test(text.replace(/还是[^，,。]{0,14}吧/gu, ''))) continue;
    const rawClause = raw.slice(Math.min(c.start, raw.length), Math.min(c.end, raw.length));
    // "if a function is too long, split it": after a condition, a pronoun points back at what the condition names.
    const anaphoric = Array.from({ length: i }, (_, j) => s.isCondition(j)).some(Boolean);
    // A universal noun phrase makes a rule of it ("every new table …") — but not over the parts of one named
    // file or thing ("rename every variable in parser.ts"), unless a time scope stands beside it.
    const within = (h: Hit): boolean => h.index >= c.start && h.end <= c.end;
    const universal = s.hits(C.universal).some(within);
    const named = CODE_THING.test(text);
    const timed = s.hits(C.time).some(within) || s.hits(P.standing).some(within);
    // ("凡是新加的 autoload，add one line to docs/autoloads.md": under a clause ranging over every such thing, a file
    // named in the main clause is where the rule writes, not the one thing it is about.)
    const ranged = Array.from({ length: i }, (_, j) => s.isCondition(j) || UNIVERSAL_LEAD.test(s.clauseText(j).trim())).some(Boolean);
    const destination = ranged && named && !C.particular.find(new Span(text)).some((h) => !ANAPHORIC.has(h.text));
    if (!destination && particularClause(s, rawClause, c.start, c.end, anaphoric) && (!universal || (named && !timed))) continue;
    const span = new Span(text.slice(main));
    let found: { mood: Mood; word: string; offset: number } | null = null;
    // A prohibitive opens its clause: after a short subject in Chinese ("前端不要…", not a pronoun), after
    // nothing but a lead word or "you" in English ("please don't …"; "I don't …" describes).
    const prohibitive = C.prohibitive.find(span).find((h) => {
      const before = span.text.slice(0, h.index).trim();
      if (!HAN.test(h.text)) return before.split(/\s+/u).every((w) => w === '' || w === 'you' || EN_LEADS.has(w.replace(/[\p{P}]/gu, '')));
      return /^[^，,。\s]{0,6}$/u.test(before) && !ZH_SUBJECTS.has(before);
    });
    if (prohibitive) found = { mood: 'prohibitive', word: prohibitive.text, offset: prohibitive.index };
    const deontic = found ? null : P.deontic.first(span);
    if (deontic) found = { mood: 'deontic', word: deontic.text, offset: deontic.index };
    // Volition of the user for a preference: "I (do, really) want / prefer / like …" with what is wanted after it.
    const volition = kind === 'user_preference' && !found ? VOLITION.exec(span.text) : null;
    if (volition && span.text.slice(volition.index + volition[0].length).trim().length > 0)
      found = { mood: 'volitional', word: volition[0], offset: volition.index };
    if (!found && kind === 'project_decision') {
      const commit = C.commitment.first(span);
      const verb = commit ? /^\s*([a-z][a-z'-]*)/u.exec(span.text.slice(commit.end))?.[1] : undefined;
      if (commit && (HAN.test(commit.text) || (verb !== undefined && !NOT_COMMITTED.has(verb))))
        found = { mood: 'commitment', word: commit.text, offset: commit.index };
    }
    if (!found) {
      const rest = span.text;
      const imperative = HAN.test(rest.replace(/[a-z0-9\s\p{P}]/gu, '').slice(0, 2)) ? chineseImperative(rest) : englishImperative(rest);
      if (imperative) found = { mood: 'imperative', ...imperative };
    }
    if (!found) continue;
    // A marker word inside a noun ("以后端返回的…") is no scope, and the rest of that noun no verb.
    const hit = at(s, i, main + Math.max(0, found.offset), found.word);
    if (s.hits(P.compounds).some((h) => h.index < hit.end && hit.index < h.end)) continue;
    // "我们这个 repo 的 Python 是 3.11，so no 3.12-only syntax please": a decision's rule in a sentence that names this
    // project as its scope is a convention of the project ("here" alone may be one place of the code).
    const project = kind === 'project_decision' && s.hits(P.projectScopes).some((h) => h.text !== 'here');
    // "…: the official images or our mirror, nothing else", "只认官方文档，…别拿来当依据": a rule closed to every
    // other case holds in all of them.
    const exclusive = s.hits(C.exclusive).length > 0;
    const strong = found.mood === 'commitment' || main > 0 || project || exclusive || scoped(s, i);
    if (!best || (strong && !best.strong)) best = { mood: found.mood, strong, hit, clause: i };
    if (best.strong) break;
  }
  return best;
}
