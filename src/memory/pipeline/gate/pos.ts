import { createRequire } from 'node:module';

/**
 * Chinese words with their part of speech (M-5.6), from `@node-rs/jieba` (the jieba segmenter's dictionary
 * and HMM, a native addon): `v` verbs, `a` adjectives, `n` nouns, `nr` person names, `r` pronouns, `d`
 * adverbs, `f` places and times. The gate reads who is the subject and whether a clause opens with its
 * verb from these tags instead of from word lists. The dictionary is loaded on the first Chinese clause
 * (≈0.5 s once per process, in the worker); where the addon cannot load, `tagged` answers null and the gate
 * reads without tags.
 */

export interface Tagged {
  word: string;
  tag: string;
}

interface JiebaLike {
  tag(text: string): Tagged[];
}

let jieba: JiebaLike | null | undefined;

function load(): JiebaLike | null {
  try {
    const require = createRequire(import.meta.url);
    const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(dict: Uint8Array): JiebaLike } };
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    return Jieba.withDict(dict);
  } catch {
    return null;
  }
}

const CACHE = new Map<string, Tagged[]>();
const MAX_CACHE = 512;

/** The words of a Chinese text with their tags (spaces dropped), or null when the tagger is not available. */
export function tagged(text: string): readonly Tagged[] | null {
  const hit = CACHE.get(text);
  if (hit) return hit;
  if (jieba === undefined) jieba = load();
  if (jieba === null) return null;
  const out = jieba.tag(text).filter((t) => t.word.trim().length > 0);
  if (CACHE.size >= MAX_CACHE) CACHE.delete(CACHE.keys().next().value!);
  CACHE.set(text, out);
  return out;
}
