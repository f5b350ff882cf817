import { spawn, spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collect } from '../helpers/child.js';
import { dbPathOf, sha256, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

const CLI = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));
const NOBODY = 65534;
/** Why the tests cannot run here: not root, or a checkout that user `nobody` cannot read (a private temp folder). */
function whyUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'permission tests run the CLI as another user, which needs root (run npm test as root, as CI does)';
  const probe = spawnSync(
    process.execPath,
    ['-e', `require('node:fs').accessSync(${JSON.stringify(CLI)}, require('node:fs').constants.R_OK)`],
    {
      uid: NOBODY,
      gid: NOBODY,
      stdio: 'ignore',
    },
  );
  if (probe.status !== 0) return `user nobody cannot read ${CLI} (the checkout lives in a folder closed to other users)`;
  return null;
}
const unavailable = whyUnavailable();
if (unavailable !== null) console.log(`[permission tests skipped] ${unavailable}`);

/** Runs the built CLI as user `nobody`, who cannot read root's 0600 files. */
async function runAsNobody(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    uid: NOBODY,
    gid: NOBODY,
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, 60_000);
}

describe.skipIf(unavailable !== null)("another user's Memory is never used, never advised to clear, never cleared", () => {
  it('status names the owner and the fix (chown, or move it aside), clear --confirm refuses, and all 5 turns stay', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    for (let i = 0; i < 5; i += 1) memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: `turn ${i}` }), 'ok');
    await memory.close();
    chmodSync(repo, 0o755);
    // The folder is open to everyone, the database is root's 0600 file.
    chmodSync(join(repo, '.autopatch-j'), 0o777);
    const hash = sha256(dbPathOf(repo));
    // Issue "Safe hands", item 2: a data folder of another user is not this user's Memory (never opened).
    const status = await runAsNobody(['memory', 'list', '--repo', repo]);
    expect(status.code).toBe(3);
    expect(status.stderr).toMatch(/belongs to another user \(uid 0\)/);
    expect(status.stderr).toMatch(/sudo chown -R/);
    expect(status.stderr).not.toMatch(/degraded|clear --confirm/);
    const clear = await runAsNobody(['memory', 'clear', '--confirm', '--repo', repo]);
    expect(clear.code).not.toBe(0);
    expect(clear.stderr).toMatch(/clear does not touch it/);
    expect(sha256(dbPathOf(repo))).toBe(hash);
    withRawDb(dbPathOf(repo), (db) => expect(db.prepare('SELECT count(*) AS n FROM turns').get()).toEqual({ n: 5 }));
  });

  it('a project folder the user cannot write: exit 1 with the fix, not the usage code', async () => {
    const repo = tempRepo();
    chmodSync(repo, 0o755);
    const run = await runAsNobody(['memory', 'status', '--repo', repo]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/fix:|may read and write/);
  });
});
