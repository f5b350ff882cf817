// Query classes for the ranked stages (issue 23), derived from a workload's items so a shared workload file
// and a generated one give the same kind of queries: natural phrases (content words of an item wrapped in a
// question), typos (a title word with two letters swapped), requests for the routing selection and questions for a kind
// of answer (a reason, a time, a person, steps, a version: the answer-kind check of the ranked stage).
import { rng } from './workload.mjs';

const FRAMES = [
  (w) => `what did we decide about ${w.join(' ')}`,
  (w) => `我们的 ${w.join(' ')} 是怎么定的`,
  (w) => `how should I handle ${w.join(' and ')} here`,
  (w) => `${w.join(' ')} 有什么要求`,
];

// Questions that ask for a kind of answer (shared/search-answer-types), so every one runs the checked statement.
const ASKING = [
  (w) => `why did we choose ${w.join(' ')}`,
  (w) => `${w.join(' ')} 什么时候做`,
  (w) => `who owns ${w.join(' ')}?`,
  (w) => `which ${w.join(' ')} version do we use`,
  (w) => `${w.join(' ')} 为什么这样定`,
  (w) => `${w.join(' ')} 的步骤`,
];

function contentWords(text) {
  return text
    .split(/[\s，。]+/u)
    .map((w) => w.trim())
    .filter((w) => w.length > 1);
}

/** `count` queries per class for the first `n` items. */
export function rankedQueries(workload, n, count, seed = 23) {
  const rand = rng(seed + n);
  const pick = () => workload.items[Math.floor(rand() * n)];
  const phrase = Array.from({ length: count }, () => {
    const words = contentWords(pick()[4]);
    const start = Math.floor(rand() * Math.max(1, words.length - 3));
    return FRAMES[Math.floor(rand() * FRAMES.length)](words.slice(start, start + 2 + Math.floor(rand() * 2)));
  });
  const typo = Array.from({ length: count }, () => {
    const latin = pick()[1]
      .split(' ')
      .filter((w) => /^[A-Za-z]{5,}$/u.test(w));
    if (latin.length === 0) return 'schedluer';
    const word = latin[Math.floor(rand() * latin.length)];
    const i = 1 + Math.floor(rand() * (word.length - 2));
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  });
  const request = Array.from({ length: count }, () => {
    const words = contentWords(pick()[4]).slice(0, 5);
    return `Can you look at this again? ${words.join(' ')} — keep it short.`;
  });
  // Drawn after the others, so the phrase, typo and request queries stay those of earlier runs.
  const question = Array.from({ length: count }, () => {
    const words = contentWords(pick()[4]);
    const start = Math.floor(rand() * Math.max(1, words.length - 2));
    return ASKING[Math.floor(rand() * ASKING.length)](words.slice(start, start + 2));
  });
  return { phrase, typo, request, question };
}
