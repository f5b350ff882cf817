#!/usr/bin/env node
// npm run eval:quality (retrieval part) [-- --corpus PATH] [--failures]: the retrieval corpus through dist/,
// figures per query type and language for the dev part and the held-back part, beside a BM25 baseline.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MemoryManager, ScriptedLlm } from '../../dist/index.js';
import { formatRetrieval, loadRetrievalCorpus, runRetrieval } from './retrieval.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const here = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const api = { MemoryManager, ScriptedLlm };

const devPath = option('corpus') ?? here('retrieval.v1.json');
const dev = loadRetrievalCorpus(devPath);
const report = await runRetrieval(dev, api, { details: args.includes('--failures') });
console.log(formatRetrieval(report, `Retrieval corpus ${devPath.split('/').at(-1)}`));
for (const m of report.missing) console.log(`  not stored: ${m.project}/${m.key} (${m.reason})`);
if (args.includes('--failures')) {
  for (const d of report.details) {
    const relevant = new Set(d.relevant);
    const ok = d.relevant.length === 0 ? d.keys.length === 0 : d.keys.some((k) => relevant.has(k)) && d.keys.every((k) => relevant.has(k));
    if (!ok)
      console.log(
        `  ✗ [${d.project} ${d.type} ${d.lang}] ${JSON.stringify(d.q)} → ${JSON.stringify(d.keys.map((k, i) => `${k}:${d.matches[i]}`))} want ${JSON.stringify(d.relevant)}${d.routed ? ' (reached)' : ''}`,
      );
  }
}
const heldPath = option('heldback') ?? here('retrieval.heldback.v1.json');
if (existsSync(heldPath)) {
  // Figures only: the held-back queries are never printed.
  const held = await runRetrieval(loadRetrievalCorpus(heldPath), api, { base: dev });
  console.log(formatRetrieval(held, 'Held-back queries'));
}
