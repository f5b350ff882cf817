#!/usr/bin/env node
// npm run eval:quality — runs the quality corpus (M-13.2, M-13.3) with a scripted model and prints the
// invariants (the gate corpora run after it, through quality/eval/gate-run.mjs on src/).
// AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1 also runs the corpus turns through the configured real model (M-13.4).
import { fileURLToPath } from 'node:url';
import { loadCorpus, runCorpus } from './corpus.mjs';

const here = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const pct = (x) => `${(x * 100).toFixed(1)} %`;
let failed = false;

const corpus = loadCorpus(here('corpus.v1.json'));
const report = await runCorpus(corpus);
const byCategory = new Map();
for (const c of report.cases) {
  const row = byCategory.get(c.category) ?? {
    cases: 0,
    failed: 0,
    expectedAccept: 0,
    expectedReject: 0,
    accepted: 0,
    rejected: 0,
    agreed: 0,
  };
  row.cases += 1;
  if (c.failures.length > 0) row.failed += 1;
  for (const k of ['expectedAccept', 'expectedReject', 'accepted', 'rejected', 'agreed']) row[k] += c.labels[k];
  byCategory.set(c.category, row);
}
console.log(`Quality corpus v${report.version}: ${report.cases.length} scenario cases\n`);
console.log('| category | cases | failed | labelled accept | labelled reject | accepted | rejected | agree with label |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [category, r] of byCategory) {
  console.log(
    `| ${category} | ${r.cases} | ${r.failed} | ${r.expectedAccept} | ${r.expectedReject} | ${r.accepted} | ${r.rejected} | ${r.agreed} |`,
  );
}
const inv = report.invariants;
console.log('\nInvariants (M-13.3)');
console.log(`  illegal provenance                         ${inv.illegalProvenance}`);
console.log(`  repair-flow Memory leakage                 ${inv.repairLeakage}`);
console.log(`  cross-repo leakage                         ${inv.crossRepoLeakage}`);
console.log(`  cross-thread leakage                       ${inv.crossThreadLeakage}`);
console.log(`  forgotten items rebuilt from old evidence  ${inv.forgottenRebuilt}`);
console.log(`  provenance completeness (active pref/dec)  ${pct(inv.provenanceCompleteness)} of ${inv.activePreferencesAndDecisions}`);
const l = report.labels;
console.log(
  `\nScenario labels: ${l.agreed}/${l.candidates} candidates agree; false accepts ${l.falseAccepts}, false rejects ${l.falseRejects}, wrong reason ${l.wrongReason}`,
);
for (const c of report.cases) for (const f of c.failures) console.log(`  ✗ ${c.id}: ${f}`);
if (
  report.cases.some((c) => c.failures.length > 0) ||
  inv.illegalProvenance + inv.repairLeakage + inv.crossRepoLeakage + inv.crossThreadLeakage + inv.forgottenRebuilt > 0 ||
  inv.provenanceCompleteness < 1
)
  failed = true;

if (process.env.AUTOPATCH_RUN_MEMORY_LIVE_EVAL === '1') {
  const { runCorpusLive } = await import('./live.mjs');
  console.log('\nLive evaluation against the configured model (AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1)');
  const live = await runCorpusLive(corpus);
  console.log(
    `  cases ${live.cases}, failed model calls ${live.modelFailures}, memories kept ${live.kept}, candidates refused ${live.refused}`,
  );
  console.log(
    `  illegal provenance ${live.invariants.illegalProvenance}, provenance completeness ${pct(live.invariants.provenanceCompleteness)} of ${live.invariants.activePreferencesAndDecisions}`,
  );
  if (live.invariants.illegalProvenance > 0 || live.invariants.provenanceCompleteness < 1) failed = true;
} else {
  console.log('\n(live evaluation skipped: set AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1 with a configured model to run it)');
}
process.exitCode = failed ? 1 : 0;
