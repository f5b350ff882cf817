import { describe, expect, it } from 'vitest';
import { byRole, runCli } from '../helpers/cli.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { connectMcp } from './mcp-client.js';
import { useFakeModel } from './scripted-model.js';

const { model, env } = useFakeModel();

describe('autopatch-j mcp: concurrency (M-3.5)', () => {
  it('two clients and one CLI session on one project lose nothing', async () => {
    const repo = tempRepo();
    model().always(byRole({ main: () => ({ text: 'ok' }) }));
    const perClient = 15;
    const cliLines = 6;
    const [a, b] = await Promise.all([connectMcp(repo, { env: env() }), connectMcp(repo, { env: env() })]);
    try {
      const record = async (name: string, session: typeof a): Promise<void> => {
        for (let i = 0; i < perClient; i += 1) await session.ok('memory_record_turn', { user: `${name} turn ${i}`, assistant: `${name} answer ${i}` });
      };
      const input = Array.from({ length: cliLines }, (_, i) => `cli line ${i}`).join('\n') + '\n';
      const [cli] = await Promise.all([runCli(['--repo', repo], { env: env(), input }), record('client-a', a), record('client-b', b)]);
      expect(cli.code, cli.stderr).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    withRawDb(dbPathOf(repo), (db) => {
      const turns = db.prepare('SELECT user_text, state, sequence FROM turns ORDER BY sequence').all() as { user_text: string; state: string; sequence: number }[];
      for (const name of ['client-a', 'client-b']) {
        for (let i = 0; i < perClient; i += 1) expect(turns.filter((t) => t.user_text === `${name} turn ${i}`), `${name} ${i}`).toHaveLength(1);
      }
      // Whether the CLI reads a pipe line by line or as one request, every line is in a stored turn.
      for (let i = 0; i < cliLines; i += 1) expect(turns.some((t) => t.user_text.includes(`cli line ${i}`)), `cli line ${i}`).toBe(true);
      expect(turns.every((t) => t.state === 'completed')).toBe(true);
      expect(turns.map((t) => t.sequence)).toEqual(turns.map((_, i) => i + 1));
      expect(db.prepare("SELECT count(*) AS n FROM threads WHERE status = 'active'").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE kind = 'extraction'").get()).toEqual({ n: turns.length });
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE status = 'leased'").get()).toEqual({ n: 0 });
    });
  });
});
