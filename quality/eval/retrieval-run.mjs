#!/usr/bin/env node
// npm run eval:quality (retrieval part) [-- --corpus PATH] [--heldback PATH] [--failures]: the retrieval corpus
// through dist/, figures per query type and language for the dev part, each read held-back part and each unread one,
// beside a BM25 baseline. `--heldback PATH` adds an unread part: figures only, its queries are never printed.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryManager, ScriptedLlm } from '../../dist/index.js';
import { formatRetrieval, loadRetrievalCorpus, runRetrieval } from './retrieval.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const here = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const api = { MemoryManager, ScriptedLlm };
const failures = args.includes('--failures');

function printFailures(report) {
  for (const d of report.details) {
    const relevant = new Set(d.relevant);
    const ok = d.relevant.length === 0 ? d.keys.length === 0 : d.keys.some((k) => relevant.has(k)) && d.keys.every((k) => relevant.has(k));
    if (!ok)
      console.log(
        `  ✗ [${d.project} ${d.type} ${d.lang}] ${JSON.stringify(d.q)} → ${JSON.stringify(d.keys.map((k, i) => `${k}:${d.matches[i]}`))} want ${JSON.stringify(d.relevant)}${d.routed ? ' (reached)' : ''}`,
      );
  }
}

const devPath = option('corpus') ?? here('retrieval.v1.json');
const dev = loadRetrievalCorpus(devPath);
const report = await runRetrieval(dev, api, { details: failures });
console.log(formatRetrieval(report, `Retrieval corpus ${devPath.split('/').at(-1)}`));
for (const m of report.missing) console.log(`  not stored: ${m.project}/${m.key} (${m.reason})`);
if (failures) printFailures(report);
// The held-back parts already read (their failures were looked at after the first run): figures, and with
// --failures their misses too.
for (const [file, label] of [
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
]) {
  if (!existsSync(here(file))) continue;
  const held = await runRetrieval(loadRetrievalCorpus(here(file)), api, { base: dev, details: failures });
  console.log(formatRetrieval(held, label));
  if (failures) printFailures(held);
}
// The held-back parts kept unread: figures only, their queries are never printed, not even with --failures.
const unreadParts = [
  ['retrieval.heldback11.v1.json', 'Held-back queries v11 (unread)'],
  ['retrieval.heldback12.v1.json', 'Held-back queries v12 (unread)'],
];
for (const [file, label] of unreadParts) {
  if (!existsSync(here(file))) continue;
  const held = await runRetrieval(loadRetrievalCorpus(here(file)), api, { base: dev });
  console.log(formatRetrieval(held, label));
}
const unread = option('heldback');
if (unread && !unreadParts.some(([file]) => resolve(unread) === here(file))) {
  // Figures only: the queries of an unread part are never printed.
  const held = await runRetrieval(loadRetrievalCorpus(unread), api, { base: dev });
  console.log(formatRetrieval(held, `Held-back queries ${unread.split('/').at(-1)} (unread)`));
}
