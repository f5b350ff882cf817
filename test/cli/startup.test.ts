import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { FIXTURES, collect } from '../helpers/child.js';
import { CLI_PATH } from '../helpers/cli.js';
import { tempRepo } from '../helpers/temp-repo.js';

// Issue 14, start-up: a command loads only what it needs, and the bin starts from its bundle and code cache.

const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

async function run(nodeArgs: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, nodeArgs, { env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = await collect(child, 60_000);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** Our ES modules a command resolves when run from the unbundled tree (the bundle keeps its lazy edges). */
async function modulesOf(args: string[]): Promise<string[]> {
  const trace = join(tempRepo('autopatch-j-trace-'), 'imports.txt');
  await run(['--import', join(FIXTURES, 'trace-imports.mjs'), join(FIXTURES, 'run-program.mjs'), ...args], { TRACE_IMPORTS_FILE: trace });
  return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
}

/** The packages the real bin loads (everything outside the bundle comes through require). */
async function requiresOf(args: string[]): Promise<string[]> {
  const trace = join(tempRepo('autopatch-j-trace-'), 'requires.txt');
  await run(['--require', join(FIXTURES, 'trace-requires.cjs'), CLI_PATH, ...args], { TRACE_REQUIRES_FILE: trace });
  return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
}

const HEAVY = [
  /\/node_modules\/openai\//,
  /\/node_modules\/marked/,
  /\/node_modules\/zod\//,
  /\/node_modules\/string-width\//,
  /\/dist\/agent\//,
  /\/dist\/memory\/pipeline\//,
  /\/node_modules\/@modelcontextprotocol\//,
];

describe('start-up loads only what a command needs', () => {
  const commands = (): string[][] => {
    const repo = tempRepo();
    return [
      ['--version'],
      ['memory', 'list', '--repo', repo],
      ['memory', 'status', '--repo', repo],
      ['memory', 'status', '--repo', tempRepo()],
    ];
  };

  it('--version, memory list and memory status load neither the model SDK, the agent, the pipeline, zod, string-width nor marked', async () => {
    const list = commands();
    await MemoryManager.open({ repoRoot: list[1]![3]! }).close();
    for (const args of list) {
      const modules = await modulesOf(args);
      const required = await requiresOf(args);
      expect(modules.some((url) => url.includes('/dist/cli/program.js'))).toBe(true);
      expect(required.some((path) => path.includes('/dist/cli/bin.cjs'))).toBe(true);
      for (const heavy of HEAVY) {
        expect(
          modules.filter((url) => heavy.test(url)),
          `${args.join(' ')} imported ${heavy}`,
        ).toEqual([]);
        expect(
          required.filter((path) => heavy.test(path)),
          `${args.join(' ')} required ${heavy}`,
        ).toEqual([]);
      }
    }
  });

  it('the traces do see a heavy package when a command loads one (mcp loads the MCP SDK)', async () => {
    const repo = tempRepo();
    const sdk = /\/node_modules\/@modelcontextprotocol\//;
    expect((await requiresOf(['mcp', '--repo', repo])).some((path) => sdk.test(path))).toBe(true);
    expect((await modulesOf(['mcp', '--repo', repo])).some((url) => sdk.test(url))).toBe(true);
  });
});

describe('the bin starts from its bundle and V8 code cache', () => {
  it('doctor reports the code cache accepted; a damaged cache is rejected and the command still works', async () => {
    const doctor = await spawnJson(CLI_PATH);
    expect(doctor.checks.find((c) => c.name === 'start-up')?.detail).toMatch(/starts from its code cache/);
    // A copy of the bin beside dist/ (so node_modules and package.json resolve the same) with a damaged cache.
    const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
    const copy = mkdtempSync(join(dist, '.bin-copy-'));
    try {
      for (const file of ['bin.cjs', 'autopatch-j.cjs']) cpSync(join(dist, 'cli', file), join(copy, file));
      writeFileSync(join(copy, 'autopatch-j.cjs.cache'), Buffer.alloc(4096, 7));
      expect((await run([join(copy, 'bin.cjs'), '--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const damaged = await spawnJson(join(copy, 'bin.cjs'));
      expect(damaged.checks.find((c) => c.name === 'start-up')?.detail).toMatch(/code cache is rejected/);
      // Without the bundle (only tsc ran): one line that says what to do, exit 1.
      rmSync(join(copy, 'autopatch-j.cjs'));
      const missing = await collect(spawn(process.execPath, [join(copy, 'bin.cjs'), '--version'], { env: ENV }), 60_000);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^autopatch-j: cannot read .*autopatch-j\.cjs \(ENOENT\); run npm run build\n$/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the Node.js version', () => {
  const start = async (version: string, requireModule?: 'true' | 'false') => {
    const env = { ...ENV, PRETEND_NODE_VERSION: version, ...(requireModule ? { PRETEND_REQUIRE_MODULE: requireModule } : {}) };
    return collect(spawn(process.execPath, ['--require', join(FIXTURES, 'pretend-node.cjs'), CLI_PATH, '--version'], { env }), 60_000);
  };

  it('without ES modules through require (20.18, 21.x, 22.11) the bin says what it needs and exits 1', async () => {
    for (const [version, flag] of [['20.18.1'], ['21.7.3'], ['22.11.0', 'false']] as const) {
      const result = await start(version, flag);
      expect(result.code, version).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`autopatch-j: needs Node.js 20.19+ or 22.12+ (this is ${version})\n`);
    }
  });

  it('with them (20.19 without the feature flag, 22.12 with it) it starts', async () => {
    for (const [version, flag] of [['20.19.0'], ['22.12.0', 'true']] as const) {
      const result = await start(version, flag);
      expect(result.code, `${version}: ${result.stderr}`).toBe(0);
      expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });
});

/** `doctor --json` of a bin (no provider configured, so it exits 1; only its checks matter here). */
async function spawnJson(bin: string): Promise<{ checks: { name: string; ok: boolean; detail: string }[] }> {
  const child = spawn(process.execPath, [bin, 'doctor', '--json', '--repo', tempRepo()], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = await collect(child, 60_000);
  return JSON.parse(result.stdout) as { checks: { name: string; ok: boolean; detail: string }[] };
}
