import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { FIXTURES, collect } from '../helpers/child.js';
import { CLI_PATH } from '../helpers/cli.js';
import { tempRepo } from '../helpers/temp-repo.js';

/** The modules a CLI run resolved, through a module-resolution hook. */
async function importsOf(args: string[]): Promise<string[]> {
  const trace = join(tempRepo('autopatch-j-trace-'), 'imports.txt');
  const child = spawn(process.execPath, ['--import', join(FIXTURES, 'trace-imports.mjs'), CLI_PATH, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TRACE_IMPORTS_FILE: trace },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = await collect(child, 60_000);
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
}

const HEAVY = [
  /\/node_modules\/openai\//,
  /\/node_modules\/marked/,
  /\/node_modules\/zod\//,
  /\/dist\/agent\//,
  /\/dist\/memory\/pipeline\//,
  /\/node_modules\/@modelcontextprotocol\//,
];

describe('start-up loads only what a command needs', () => {
  it('--version and memory list load neither the model SDK, the agent, the Memory pipeline, zod nor the markdown renderer', async () => {
    const repo = tempRepo();
    await MemoryManager.open({ repoRoot: repo }).close();
    for (const args of [['--version'], ['memory', 'list', '--repo', repo], ['memory', 'status', '--repo', tempRepo()]]) {
      const loaded = await importsOf(args);
      expect(loaded.length).toBeGreaterThan(0);
      for (const heavy of HEAVY)
        expect(
          loaded.filter((url) => heavy.test(url)),
          `${args.join(' ')} loaded ${heavy}`,
        ).toEqual([]);
    }
  });
});
