import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { dbPathOf, sha256, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { connectMcp, textOf } from './mcp-client.js';
import { type StatusView, useFakeModel } from './scripted-model.js';
import { openMemory } from '../helpers/memory.js';

const { model, env } = useFakeModel();

describe('autopatch-j mcp: a degraded Memory (M-2.4)', () => {
  it('tools answer with errors naming the reason and the recovery command; files stay byte-identical; a recovered database is used at once', async () => {
    const repo = tempRepo();
    const setup = openMemory({ repoRoot: repo });
    await setup.close();
    withRawDb(dbPathOf(repo), (db) => db.exec('CREATE TABLE foo (x)'));
    const dataDir = join(repo, '.autopatch-j');
    const snapshot = (): Record<string, string> =>
      Object.fromEntries(
        readdirSync(dataDir)
          .sort()
          .map((name) => [name, sha256(join(dataDir, name))]),
      );
    const before = snapshot();

    const mcp = await connectMcp(repo, { env: env(), args: ['--allow-forget'] });
    try {
      const calls = [
        await mcp.call('memory_search', { query: 'anything' }),
        await mcp.call('memory_read', { id: 'mabcd' }),
        await mcp.call('memory_record_turn', { user: '以后用中文回答。', assistant: '好的' }),
        await mcp.call('memory_forget', { id: 'mabcd' }),
      ];
      for (const result of calls) {
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('Memory is degraded: unknown table foo');
        expect(textOf(result)).toContain(`autopatch-j memory clear --confirm --repo ${repo}`);
        expect(textOf(result)).toContain('never repairs');
      }
      const status = await mcp.ok<StatusView>('memory_status');
      expect(status).toMatchObject({ health: 'degraded', degraded_reason: 'unknown table foo', background_worker: 'stopped' });
      expect(status.recovery?.recover).toBe(`autopatch-j memory clear --confirm --repo ${repo}`);
      await expect(mcp.resource('memory://routing')).rejects.toThrow(/Memory is degraded: unknown table foo/);
      await expect(mcp.resource('memory://items')).rejects.toThrow(/memory clear --confirm/);
      // While the server runs, SQLite keeps its shared-memory files beside the database; nothing is written.
      expect(sha256(dbPathOf(repo))).toBe(before['memory.db']);
    } finally {
      await mcp.close();
    }
    expect(snapshot()).toEqual(before);

    // A person recovers from the CLI while a server runs; it uses the database on its next call.
    const again = await connectMcp(repo, { env: env() });
    try {
      expect((await again.call('memory_search', { query: 'anything' })).isError).toBe(true);
      const cleared = await runCli(['memory', 'clear', '--confirm', '--repo', repo]);
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(await again.ok('memory_search', { query: 'anything' })).toEqual({ hits: [] });
      expect(await again.ok<StatusView>('memory_status')).toMatchObject({ health: 'healthy', background_worker: 'running' });
      expect(again.stderr()).toContain('Memory is healthy again');
    } finally {
      await again.close();
    }
    expect(model().requests).toHaveLength(0);
  });
});
