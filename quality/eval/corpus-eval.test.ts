// `node quality/eval/run.mjs` (part of `npm run eval:quality`) runs this file, the vitest project quality-eval:
// the quality corpus (M-13.2) through the public API of src/ with a scripted model, its labels per category and
// the M-13.3 invariants; with AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1 also the live evaluation (M-13.4). The report goes
// to stdout through the launcher; the test fails when a case fails or an invariant does not hold.
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { type CaseLabels, loadCorpus, runCorpus } from './corpus.js';
import { print } from './report.js';

const here = (file: string): string => fileURLToPath(new URL(`../${file}`, import.meta.url));
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const corpus = loadCorpus(here('corpus.v1.json'));

it('quality corpus: labels and invariants', async () => {
  const report = await runCorpus(corpus);
  const byCategory = new Map<string, CaseLabels & { cases: number; failed: number }>();
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
    for (const k of ['expectedAccept', 'expectedReject', 'accepted', 'rejected', 'agreed'] as const) row[k] += c.labels[k];
    byCategory.set(c.category, row);
  }
  print(`Quality corpus v${report.version}: ${report.cases.length} scenario cases\n`);
  print('| category | cases | failed | labelled accept | labelled reject | accepted | rejected | agree with label |');
  print('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [category, r] of byCategory) {
    print(
      `| ${category} | ${r.cases} | ${r.failed} | ${r.expectedAccept} | ${r.expectedReject} | ${r.accepted} | ${r.rejected} | ${r.agreed} |`,
    );
  }
  const inv = report.invariants;
  print('\nInvariants (M-13.3)');
  print(`  illegal provenance                         ${inv.illegalProvenance}`);
  print(`  repair-flow Memory leakage                 ${inv.repairLeakage}`);
  print(`  cross-repo leakage                         ${inv.crossRepoLeakage}`);
  print(`  cross-thread leakage                       ${inv.crossThreadLeakage}`);
  print(`  forgotten items rebuilt from old evidence  ${inv.forgottenRebuilt}`);
  print(`  provenance completeness (active pref/dec)  ${pct(inv.provenanceCompleteness)} of ${inv.activePreferencesAndDecisions}`);
  const l = report.labels;
  print(
    `\nScenario labels: ${l.agreed}/${l.candidates} candidates agree; false accepts ${l.falseAccepts}, false rejects ${l.falseRejects}, wrong reason ${l.wrongReason}`,
  );
  const failures = report.cases.flatMap((c) => c.failures.map((f) => `${c.id}: ${f}`));
  for (const f of failures) print(`  ✗ ${f}`);
  const problems = [...failures];
  const leaks = inv.illegalProvenance + inv.repairLeakage + inv.crossRepoLeakage + inv.crossThreadLeakage + inv.forgottenRebuilt;
  if (leaks > 0 || inv.provenanceCompleteness < 1) problems.push('an M-13.3 invariant does not hold');

  if (process.env['AUTOPATCH_RUN_MEMORY_LIVE_EVAL'] === '1') {
    const { runCorpusLive } = await import('./live.js');
    print('\nLive evaluation against the configured model (AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1)');
    const live = await runCorpusLive(corpus);
    print(
      `  cases ${live.cases}, failed model calls ${live.modelFailures}, memories kept ${live.kept}, candidates refused ${live.refused}`,
    );
    print(
      `  illegal provenance ${live.invariants.illegalProvenance}, provenance completeness ${pct(live.invariants.provenanceCompleteness)} of ${live.invariants.activePreferencesAndDecisions}`,
    );
    if (live.invariants.illegalProvenance > 0 || live.invariants.provenanceCompleteness < 1) {
      problems.push('a live invariant does not hold');
    }
  } else {
    print('\n(live evaluation skipped: set AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1 with a configured model to run it)');
  }
  expect(problems).toEqual([]);
});
