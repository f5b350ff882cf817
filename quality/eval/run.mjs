#!/usr/bin/env node
// npm run eval:quality — runs the quality corpus (M-13.2, M-13.3) on src/ with a scripted model and prints the
// invariants (quality/eval/corpus-eval.test.ts, vitest project quality-eval; the gate corpora run after it,
// through quality/eval/gate-run.mjs). AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1 also runs the corpus turns through the
// configured real model (M-13.4).
import { runEvaluation } from './launch.mjs';

await runEvaluation('quality/eval/corpus-eval.test.ts', {});
