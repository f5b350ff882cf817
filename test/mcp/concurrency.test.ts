import { describe, expect, it } from 'vitest';
import { byRole, runCli } from '../helpers/cli.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { connectMcp } from './mcp-client.js';
import { createAll, extract, useFakeModel } from './scripted-model.js';

const { model, env } = useFakeModel();

describe('autopatch-j mcp: concurrency (M-3.5)', () => {
  it('two clients and one CLI session on one project lose nothing, and no job is committed twice', async () => {
    const repo = tempRepo();
    model().always(byRole({ main: () => ({ text: 'ok' }), extraction: extract, consolidation: createAll }));
    const perClient = 15;
    const cliLines = 6;
    // Every client turn states one preference of its own; the CLI lines state none.
    const rule = (client: number, i: number): string => `以后第${client * 100 + i}条规则：用规则${client * 100 + i}。`;
    const [a, b] = await Promise.all([connectMcp(repo, { env: env() }), connectMcp(repo, { env: env() })]);
    try {
      const record = async (client: number, session: typeof a): Promise<void> => {
        for (let i = 0; i < perClient; i += 1) await session.ok('memory_record_turn', { user: rule(client, i), assistant: '好的' });
      };
      const input = Array.from({ length: cliLines }, (_, i) => `cli line ${i}`).join('\n') + '\n';
      const [cli] = await Promise.all([runCli(['--repo', repo], { env: env(), input }), record(1, a), record(2, b)]);
      expect(cli.code, cli.stderr).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // One more client that connects and leaves: its exit pass takes whatever is still queued.
    await (await connectMcp(repo, { env: env() })).close();

    withRawDb(dbPathOf(repo), (db) => {
      const turns = db.prepare('SELECT user_text, state, sequence FROM turns ORDER BY sequence').all() as {
        user_text: string;
        state: string;
        sequence: number;
      }[];
      for (const client of [1, 2]) {
        for (let i = 0; i < perClient; i += 1)
          expect(
            turns.filter((t) => t.user_text === rule(client, i)),
            rule(client, i),
          ).toHaveLength(1);
      }
      // Whether the CLI reads a pipe line by line or as one request, every line is in a stored turn.
      for (let i = 0; i < cliLines; i += 1)
        expect(
          turns.some((t) => t.user_text.includes(`cli line ${i}`)),
          `cli line ${i}`,
        ).toBe(true);
      expect(turns.every((t) => t.state === 'completed')).toBe(true);
      expect(turns.map((t) => t.sequence)).toEqual(turns.map((_, i) => i + 1));
      expect(db.prepare("SELECT count(*) AS n FROM threads WHERE status = 'active'").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE kind = 'extraction'").get()).toEqual({ n: turns.length });
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE status NOT IN ('succeeded', 'succeeded_no_output')").get()).toEqual({
        n: 0,
      });
      // Three workers shared the queue: each preference was extracted and consolidated exactly once.
      expect(
        db
          .prepare(
            'SELECT count(*) AS n, count(DISTINCT s.turn_id) AS turns FROM memory_candidates c JOIN candidate_sources s ON s.candidate_id = c.id',
          )
          .get(),
      ).toEqual({ n: 2 * perClient, turns: 2 * perClient });
      expect(
        db
          .prepare(
            "SELECT count(*) AS n, count(DISTINCT title) AS titles FROM memory_items WHERE status = 'active' AND kind = 'user_preference'",
          )
          .get(),
      ).toEqual({ n: 2 * perClient, titles: 2 * perClient });
    });
  });
});
