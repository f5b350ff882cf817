#!/usr/bin/env node
// npm run eval:gate -- [--failures] [--write-baseline] [FILE…]: the gate evaluation on src/ (vitest project
// gate-eval). Prints only aggregate figures unless --failures is given.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('--')).map((f) => resolve(f));
const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const result = spawnSync(process.execPath, [vitest, 'run', '--project', 'gate-eval', '--reporter', 'dot'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    GATE_CORPUS: files.join('\n'),
    GATE_FAILURES: args.includes('--failures') ? '1' : '0',
    GATE_WRITE_BASELINE: args.includes('--write-baseline') ? '1' : '0',
  },
});
process.exitCode = result.status ?? 1;
