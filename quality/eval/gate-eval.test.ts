// `npm run eval:gate -- [--failures] [--write-baseline] [FILE…]` runs this file (the vitest project gate-eval):
// the gate corpus files given (default: quality/gate.v1.json and quality/gate.check.v1.json) through the
// public API of src/, printing aggregate figures per tier, language and category. Sentences are printed only
// with --failures, for a corpus already measured on first contact.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { baselineOf, formatFailures, formatFigures, loadGateCorpus, runGateCorpus } from './gate.js';

const here = (file: string): string => fileURLToPath(new URL(`../${file}`, import.meta.url));
const files = (process.env['GATE_CORPUS'] ?? '').split('\n').filter((f) => f.length > 0);
const paths = files.length > 0 ? files : [here('gate.v1.json'), here('gate.check.v1.json')];

for (const path of paths) {
  it(`gate figures of ${path}`, async () => {
    const corpus = loadGateCorpus(path);
    const run = await runGateCorpus(corpus);
    const categories = Object.keys(corpus.categories).length;
    console.log(formatFigures(`${path}: ${corpus.items.length} labelled candidates, ${categories} categories`, run.figures));
    if (process.env['GATE_FAILURES'] === '1') console.log(formatFailures(run.results) || '  (no wrong verdict)');
    if (process.env['GATE_WRITE_BASELINE'] === '1' && path === here('gate.v1.json')) {
      writeFileSync(here('gate.baseline.json'), `${JSON.stringify(baselineOf(run.figures), null, 2)}\n`);
      console.log('wrote quality/gate.baseline.json');
    }
    // The rounds already read are held at their figures too (quality/gate.rounds/baseline.json).
    const round = /gate\.rounds\/(round-\d+)\.json$/u.exec(path)?.[1];
    if (process.env['GATE_WRITE_BASELINE'] === '1' && round) {
      const file = here('gate.rounds/baseline.json');
      const all = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
      all[round] = baselineOf(run.figures);
      writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
      console.log(`wrote the ${round} baseline to quality/gate.rounds/baseline.json`);
    }
    expect(run.results).toHaveLength(corpus.items.length);
  });
}
