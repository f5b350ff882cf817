import { MAX_QUERY_LENGTH, SUFFIX_LENGTH, TYPO_MARK, TYPO_MIN_LENGTH } from '../store/item-terms.js';
import {
  CONCEPT_MARK,
  MAX_PHRASE_WORDS,
  canonicalText,
  deletions,
  phraseKey,
  phraseUnits,
  startsCjk,
  type WordGroup,
  wordGroups,
} from '../../shared/search-words.js';
import { askedAnswerRows, askedOptions } from '../../shared/search-answer-types.js';
import { normalizeText } from '../../shared/text.js';
import { specificity } from '../../shared/word-frequency.js';

/** A key range of a term index: every string that starts with `low`'s prefix sorts in [low, high). */
export interface TermRange {
  low: string;
  high: string;
}

/** The normalized query and its forms for each search stage; null when the query must return []. */
export interface PreparedQuery {
  text: string;
  /** The canonical whole-term form (identifiers split, words stemmed); equal to `text` when nothing changes. */
  canonical: string;
  /** Prefix ranges of the whole-term stage (a short Latin query only completes a word). */
  prefix: TermRange[];
  /** Suffix-index ranges of the substring stage; empty when the query is too short for substrings. */
  substring: TermRange[];
  /** True when the query fits in the stored suffix length (no confirmation against the whole term). */
  substringExact: boolean;
  /**
   * Ranked-stage forms: [group, indexed term, kind (0 word, 1 alternative form, 2 typo, 3 phrase), factor,
   * identifier (the group of its first part, or the word's own group), parts of that identifier, the share of
   * its IDF the group weighs (a general word or a guess weighs less), the share of that it keeps when no memory
   * has the word (less for a guess, and for a word common in the language), 1 when the group is a guessed
   * bigram (a subject only where a memory has it), the word it is one of when counting an item's words (its
   * identifier; the Chinese words of one glossary form, 生产|环境, are one word)].
   */
  forms: [number, string, 0 | 1 | 2 | 3, number, number, number, number, number, 0 | 1, number][];
  /**
   * What a ranked hit must state, each a list of content rows one of which it must have: the answer-type row of each
   * kind of answer the query asks for (a quantity, a name form, a time, a reason, a person, steps), the version
   * rows of what a question for a version names, and the forms of the options a question offering a choice names
   * (shared/search-answer-types).
   */
  answerTypes: string[][];
}

/** Query words the ranked stage weighs, at most. */
export const MAX_QUERY_WORDS = 12;
/** A typo match counts this much of its word (ranked below exact matches, M-7.7). */
export const TYPO_FACTOR = 0.8;
/** Latin queries shorter than this never match inside a term (M-7.7). */
const MIN_LATIN_SUBSTRING = 3;

const MAX_CHAR = String.fromCodePoint(0x10ffff);

function range(prefix: string): TermRange {
  return { low: prefix, high: prefix + MAX_CHAR };
}

export function prepareQuery(query: string): PreparedQuery | null {
  const text = normalizeText(query);
  if (text.length === 0 || Array.from(text).length > MAX_QUERY_LENGTH) return null;
  const canonical = canonicalText(query) || text;
  const shortLatin = !startsCjk(text) && Array.from(text).length < MIN_LATIN_SUBSTRING;
  const variants = canonical === text ? [text] : [text, canonical];
  // A short Latin query is a whole word: "go" may start "go modules" but not "google". A canonical form ends
  // on a stem, so it only starts a term as whole words: "trac" (traces) starts "trac id", not "track".
  const wordPrefix = (v: string): TermRange => ({
    low: `${v} `,
    high: `${v} ${MAX_CHAR}`,
  });
  const prefix = [shortLatin ? wordPrefix(text) : range(text), ...(canonical === text ? [] : [wordPrefix(canonical)])];
  const substring = shortLatin ? [] : variants.map((v) => range(Array.from(v).slice(0, SUFFIX_LENGTH).join('')));
  const forms = rankedForms(query, { maxWords: MAX_QUERY_WORDS, typos: true });
  return {
    text,
    canonical,
    prefix,
    substring,
    substringExact: Array.from(text).length <= SUFFIX_LENGTH,
    forms,
    answerTypes: [...askedAnswerRows(query), ...optionTerms(askedOptions(query))],
  };
}

/**
 * The rows that name one of a question's options: each option word, the forms that stand for it and its typo forms
 * (as the ranked stage matches them). One list: naming either option is enough.
 */
function optionTerms(options: WordGroup[]): string[][] {
  if (options.length === 0) return [];
  const terms = new Set<string>();
  for (const option of options) {
    terms.add(option.term);
    for (const alternative of option.alternatives) terms.add(alternative);
  }
  for (const option of options) {
    for (const spelling of option.spellings) {
      if (Array.from(spelling).length < TYPO_MIN_LENGTH) continue;
      terms.add(TYPO_MARK + spelling);
      for (const variant of deletions(spelling)) terms.add(TYPO_MARK + variant);
    }
  }
  return [[...terms]];
}

/**
 * A name whose other parts are no words ("MySQL": "My" is a stop word) is searched only whole: its part "sql" alone
 * would find every item about SQL. One word, the joined form, stands for the parts left.
 */
function wholeNames(groups: WordGroup[]): WordGroup[] {
  const named = new Set<string>();
  const out: WordGroup[] = [];
  for (const group of groups) {
    if (!group.partial || group.identifier === undefined) {
      out.push(group);
      continue;
    }
    if (named.has(group.identifier)) continue;
    named.add(group.identifier);
    const { identifier, partial: _partial, ...rest } = group;
    out.push({ ...rest, term: identifier, alternatives: [], spellings: group.spellings.filter((w) => w !== group.term) });
  }
  return out;
}

/**
 * The ranked-stage forms of a text: each word (group g), the other indexed forms that stand for it, and, with
 * `typos`, its one-edit forms for Latin words of TYPO_MIN_LENGTH letters or more.
 */
export function rankedForms(text: string, options: { maxWords: number; typos: boolean }): PreparedQuery['forms'] {
  const forms: PreparedQuery['forms'] = [];
  const groups = wholeNames(wordGroups(text)).slice(0, options.maxWords);
  // Phrases: every run of 2 to MAX_PHRASE_WORDS consecutive words, as the key a short metadata term has.
  const words = phraseUnits(groups);
  // A phrase of general words only ("命名规范") answers a query of general words only: where the query has a
  // subject, a memory named by its general words is not about that subject ("特征命名规范").
  const subjects = new Set(groups.filter((g) => g.weight >= 1).map((g) => g.identifier ?? g.term));
  const keys = new Set<string>();
  for (let size = 2; size <= MAX_PHRASE_WORDS; size += 1) {
    for (let i = 0; i + size <= words.length; i += 1) {
      const phrase = words.slice(i, i + size);
      if (subjects.size > 0 && !phrase.some((w) => subjects.has(w))) continue;
      keys.add(phraseKey(phrase));
    }
  }
  for (const key of keys) forms.push([-1, key, 3, 1, -1, 1, 1, 1, 0, -1]);
  // The parts of one identifier form one unit: it counts only for an item that has every part (or the whole).
  const unitOf = new Map<string, number>();
  const partsOf = new Map<number, number>();
  groups.forEach((group, g) => {
    const unit =
      group.identifier === undefined ? g : (unitOf.get(group.identifier) ?? unitOf.set(group.identifier, g).get(group.identifier)!);
    partsOf.set(unit, (partsOf.get(unit) ?? 0) + 1);
  });
  // Chinese words inside one glossary form share its concept: the first of them names the word.
  const wordOfConcept = new Map<string, number>();
  groups.forEach((group, g) => {
    const concept = startsCjk(group.term) ? group.alternatives.find((a) => a.startsWith(CONCEPT_MARK)) : undefined;
    if (concept !== undefined && !wordOfConcept.has(concept)) wordOfConcept.set(concept, g);
  });
  groups.forEach((group, g) => {
    const unit = group.identifier === undefined ? g : unitOf.get(group.identifier)!;
    const concept = startsCjk(group.term) ? group.alternatives.find((a) => a.startsWith(CONCEPT_MARK)) : undefined;
    const word = concept === undefined ? unit : wordOfConcept.get(concept)!;
    // A word no memory has weighs by how specific it is in the language (looked up only once it is needed).
    const surface = group.unknownShare === 0 ? undefined : group.surface;
    const unknown = surface === undefined ? group.unknownShare : group.unknownShare * specificity(surface, !group.guess);
    const guess = group.guess ? 1 : 0;
    const at = (term: string, kind: 0 | 1 | 2, factor: number): void => {
      forms.push([g, term, kind, factor, unit, partsOf.get(unit)!, group.weight, unknown, guess, word]);
    };
    at(group.term, 0, 1);
    for (const alternative of group.alternatives) at(alternative, 1, 1);
    if (!options.typos) return;
    for (const spelling of group.spellings) {
      if (Array.from(spelling).length < TYPO_MIN_LENGTH) continue;
      at(TYPO_MARK + spelling, 2, TYPO_FACTOR);
      for (const variant of deletions(spelling)) at(TYPO_MARK + variant, 2, TYPO_FACTOR);
    }
  });
  return forms;
}
