#!/usr/bin/env node
// npm run eval:quality (retrieval part) [-- --corpus PATH] [--heldback PATH] [--failures]: the retrieval corpus
// on src/ (quality/eval/retrieval-eval.test.ts, vitest project quality-eval), figures per query type and language
// for the dev part, each read held-back part and each unread one, beside a BM25 baseline. `--heldback PATH` adds
// an unread part: figures only, its queries are never printed.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runEvaluation } from './launch.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const here = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const parts = (list) => JSON.stringify(list.map(([file, label]) => [here(file), label]));

// The held-back parts already read (their failures were looked at after the first run): figures, and with
// --failures their misses too.
const readParts = [
  ['retrieval.heldback.v1.json', 'Held-back queries v1 (read)'],
  ['retrieval.heldback2.v1.json', 'Held-back queries v2 (read)'],
  ['retrieval.heldback3.v1.json', 'Held-back queries v3 (read)'],
  ['retrieval.heldback4.v1.json', 'Held-back queries v4 (read)'],
  ['retrieval.heldback5.v1.json', 'Held-back queries v5 (read)'],
  ['retrieval.heldback6.v1.json', 'Held-back queries v6 (read)'],
  ['retrieval.heldback7.v1.json', 'Held-back queries v7 (read)'],
  ['retrieval.heldback8.v1.json', 'Held-back queries v8 (read)'],
  ['retrieval.heldback9.v1.json', 'Held-back queries v9 (read)'],
  ['retrieval.heldback10.v1.json', 'Held-back queries v10 (read)'],
  ['retrieval.heldback11.v1.json', 'Held-back queries v11 (read)'],
  ['retrieval.heldback12.v1.json', 'Held-back queries v12 (read)'],
  ['retrieval.heldback13.v1.json', 'Held-back part v13, own project (read)'],
];
// The held-back parts kept unread: figures only, their queries are never printed, not even with --failures.
const unreadParts = [
  ['retrieval.heldback14.v1.json', 'Held-back part v14, own project (unread)'],
  ['retrieval.heldback15.v1.json', 'Held-back part v15, own projects (unread)'],
];
const unread = option('heldback');

await runEvaluation('quality/eval/retrieval-eval.test.ts', {
  RETRIEVAL_CORPUS: resolve(option('corpus') ?? here('retrieval.v1.json')),
  RETRIEVAL_READ_PARTS: parts(readParts),
  RETRIEVAL_UNREAD_PARTS: parts(unreadParts),
  RETRIEVAL_HELDBACK: unread ? resolve(unread) : '',
  RETRIEVAL_FAILURES: args.includes('--failures') ? '1' : '0',
});
