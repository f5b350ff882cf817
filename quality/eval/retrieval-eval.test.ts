// `node quality/eval/retrieval-run.mjs` (part of `npm run eval:quality`) runs this file, the vitest project
// quality-eval: the retrieval corpus through the public API of src/, figures per query type and language for the
// dev part (RETRIEVAL_CORPUS), each read held-back part (RETRIEVAL_READ_PARTS, with RETRIEVAL_FAILURES=1 their
// misses too) and each unread one (RETRIEVAL_UNREAD_PARTS and RETRIEVAL_HELDBACK: figures only, their queries
// are never printed), beside a BM25 baseline. The report goes to stdout through the launcher.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import { print } from './report.js';
import { type RetrievalReport, formatRetrieval, loadRetrievalCorpus, runRetrieval } from './retrieval.js';

const api = { MemoryManager, ScriptedLlm };
const env = (name: string): string => process.env[name] ?? '';
const partsOf = (name: string): [string, string][] => (env(name) ? (JSON.parse(env(name)) as [string, string][]) : []);
const failures = env('RETRIEVAL_FAILURES') === '1';
const devPath = env('RETRIEVAL_CORPUS') || fileURLToPath(new URL('../retrieval.v1.json', import.meta.url));
const dev = loadRetrievalCorpus(devPath);
const unreadParts = partsOf('RETRIEVAL_UNREAD_PARTS');
const heldback = env('RETRIEVAL_HELDBACK');

function printFailures(report: RetrievalReport): void {
  for (const d of report.details) {
    const relevant = new Set(d.relevant);
    const ok = d.relevant.length === 0 ? d.keys.length === 0 : d.keys.some((k) => relevant.has(k)) && d.keys.every((k) => relevant.has(k));
    if (!ok)
      print(
        `  ✗ [${d.project} ${d.type} ${d.lang}] ${JSON.stringify(d.q)} → ${JSON.stringify(d.keys.map((k, i) => `${k}:${d.matches[i]}`))} want ${JSON.stringify(d.relevant)}${d.routed ? ' (reached)' : ''}`,
      );
  }
}

it(`retrieval figures of ${devPath}`, async () => {
  const report = await runRetrieval(dev, api, { details: failures });
  print(formatRetrieval(report, `Retrieval corpus ${devPath.split('/').at(-1)}`));
  for (const m of report.missing) print(`  not stored: ${m.project}/${m.key} (${m.reason})`);
  if (failures) printFailures(report);
  expect(report.ours.all.n).toBeGreaterThan(0);
});

for (const [path, label] of partsOf('RETRIEVAL_READ_PARTS').filter(([p]) => existsSync(p))) {
  it(`retrieval figures of ${path}`, async () => {
    const held = await runRetrieval(loadRetrievalCorpus(path), api, { base: dev, details: failures });
    print(formatRetrieval(held, label));
    if (failures) printFailures(held);
  });
}

// Figures only: the queries of an unread part are never printed, not even with RETRIEVAL_FAILURES=1.
const unread = unreadParts.filter(([p]) => existsSync(p));
if (heldback && !unreadParts.some(([p]) => p === heldback)) {
  unread.push([heldback, `Held-back queries ${heldback.split('/').at(-1)} (unread)`]);
}
for (const [path, label] of unread) {
  it(`retrieval figures of ${path} (unread)`, async () => {
    const held = await runRetrieval(loadRetrievalCorpus(path), api, { base: dev });
    print(formatRetrieval(held, label));
    // Why memories were not stored, as counts per reason (no memory text).
    const reasons = new Map<string, number>();
    for (const m of held.missing) reasons.set(m.reason, (reasons.get(m.reason) ?? 0) + 1);
    for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) print(`  not stored: ${n} × ${reason}`);
  });
}
