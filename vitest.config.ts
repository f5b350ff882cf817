import { defineConfig } from 'vitest/config';

const shared = { pool: 'forks', testTimeout: 60_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'default', include: ['test/**/*.test.ts'] } },
      // The gate evaluation (npm run eval:gate): runs the corpus files it is given against src/.
      { test: { ...shared, name: 'gate-eval', include: ['quality/eval/gate-eval.test.ts'], testTimeout: 1_800_000 } },
      // The scenario and retrieval evaluations (quality/eval/run.mjs, retrieval-run.mjs): on src/, like the gate.
      {
        test: {
          ...shared,
          name: 'quality-eval',
          include: ['quality/eval/corpus-eval.test.ts', 'quality/eval/retrieval-eval.test.ts'],
          testTimeout: 1_800_000,
        },
      },
    ],
  },
});
