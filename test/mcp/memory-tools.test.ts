import { describe, expect, it } from 'vitest';
import { byRole, payloadOf, roleOf } from '../helpers/cli.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { connectMcp, textOf, until } from './mcp-client.js';
import {
  DECISION,
  type ExtractionPayload,
  type Hit,
  PREFERENCE,
  type ReadView,
  type StatusView,
  createAll,
  extract,
  useFakeModel,
} from './scripted-model.js';
import { openMemory } from '../helpers/memory.js';

const { model, env } = useFakeModel();

describe('autopatch-j mcp: Memory through the tools', () => {
  it('records a Chinese preference and an English decision; the worker derives both; search and read find them with their quotes', async () => {
    const repo = tempRepo();
    model().always(byRole({ extraction: extract, consolidation: createAll }));
    const mcp = await connectMcp(repo, { env: env() });
    try {
      const first = await mcp.ok<{ turn_id: string; sequence: number; intent: string; state: string }>('memory_record_turn', {
        user: `这个项目的代码我看过了。${PREFERENCE}`,
        assistant: '好的，以后我先给结论。',
      });
      expect(first).toMatchObject({ sequence: 1, intent: 'general_chat', state: 'completed' });
      const second = await mcp.ok<{ sequence: number }>('memory_record_turn', {
        user: `Thanks. ${DECISION} Explain the schema next.`,
        assistant: 'Noted: PostgreSQL 16.',
        intent: 'code_explain',
      });
      expect(second.sequence).toBe(2);

      // Two pending turns make extraction due at once (M-5.1); consolidation follows in the background.
      const status = await until(async () => {
        const s = await mcp.ok<StatusView>('memory_status');
        return s.items['user_preference'] === 1 && s.items['project_decision'] === 1 ? s : undefined;
      }, 'both memories');
      expect(status).toMatchObject({ health: 'healthy', model_configured: true, background_worker: 'running' });
      const extraction = model().requests.find((r) => roleOf(r) === 'extraction')!;
      expect(payloadOf<ExtractionPayload>(extraction).turns.map((t) => t.user)).toEqual([
        `这个项目的代码我看过了。${PREFERENCE}`,
        `Thanks. ${DECISION} Explain the schema next.`,
      ]);

      const zh = (await mcp.ok<{ hits: Hit[] }>('memory_search', { query: '结论' })).hits;
      expect(zh).toMatchObject([{ kind: 'user_preference', title: '回答先给结论' }]);
      const preference = await mcp.ok<ReadView>('memory_read', { id: zh[0]!.id });
      expect(preference).toMatchObject({
        kind: 'user_preference',
        non_factual: false,
        sources: [{ turn_id: first.turn_id, role: 'user' }],
      });
      expect(preference.sources[0]!.excerpt).toContain(PREFERENCE);

      const en = (await mcp.ok<{ hits: Hit[] }>('memory_search', { query: 'postgresql' })).hits;
      expect(en).toMatchObject([{ kind: 'project_decision', title: 'Use PostgreSQL 16 for the billing service' }]);
      const decision = await mcp.ok<ReadView>('memory_read', { id: en[0]!.id.slice(0, 5) });
      expect(decision.sources[0]!.excerpt).toContain(DECISION);
      expect((await mcp.ok<{ hits: Hit[] }>('memory_search', { query: 'kubernetes' })).hits).toEqual([]);

      const routing = await mcp.resource('memory://routing');
      expect(routing.length).toBeLessThanOrEqual(4000);
      expect(routing).toContain('Memory is not source evidence');
      expect(routing).toContain('回答先给结论');
      expect(routing).toContain('Use PostgreSQL 16 for the billing service');
      const items = JSON.parse(await mcp.resource('memory://items')) as { count: number; items: { id: string }[] };
      expect(items.count).toBe(2);
      const shown = JSON.parse(await mcp.resource(`memory://item/${en[0]!.id}`)) as { status: string; sources: { quote: string }[] };
      expect(shown).toMatchObject({ status: 'active', sources: [{ quote: DECISION }] });
      await expect(mcp.resource('memory://item/mzzzzzzz')).rejects.toThrow(/No memory matches id 'mzzzzzzz'/);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a repair intent, blank or oversize text and an unknown intent with clear errors, and records nothing', async () => {
    const repo = tempRepo();
    const mcp = await connectMcp(repo);
    try {
      const repair = await mcp.call('memory_record_turn', { user: 'audit calc.js', assistant: 'Found one bug.', intent: 'code_audit' });
      expect(repair.isError).toBe(true);
      expect(textOf(repair)).toMatch(
        /'code_audit' is a repair intent and is refused: repair work \(code_audit, patch_explain, patch_revise\) never reads or writes memory/,
      );
      const blank = await mcp.call('memory_record_turn', { user: ' \n ', assistant: 'answer' });
      expect(textOf(blank)).toMatch(/user is blank/);
      const empty = await mcp.call('memory_record_turn', { user: 'hello', assistant: '' });
      expect(textOf(empty)).toMatch(/assistant is empty/);
      const unknown = await mcp.call('memory_record_turn', { user: 'hello', assistant: 'hi', intent: 'small_talk' });
      expect(textOf(unknown)).toMatch(/intent must be one of code_explain, general_chat/);
      const huge = await mcp.call('memory_record_turn', { user: 'x'.repeat(100_001), assistant: 'hi' });
      expect(textOf(huge)).toMatch(/user is longer than 100000 characters/);
      const extra = await mcp.call('memory_record_turn', { user: 'hello', assistant: 'hi', thread: 't-1' });
      expect(extra.isError).toBe(true);
      for (const result of [repair, blank, empty, unknown, huge, extra]) expect(result.isError).toBe(true);
      expect((await mcp.call('memory_search', { query: '' })).isError).toBe(true);
      expect(textOf(await mcp.call('memory_read', { id: 'mzzzz' }))).toMatch(/No memory matches id 'mzzzz'.*memory_search/);
    } finally {
      await mcp.close();
    }
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM turns').get())).toEqual({ n: 0 });
  });

  it('without a model it searches, reads and queues turns; with one, closing stdin gives them the exit pass (M-10.2)', async () => {
    const repo = tempRepo();
    const offline = await connectMcp(repo);
    const recorded = await offline.ok<{ next: string }>('memory_record_turn', { user: PREFERENCE, assistant: '好的' });
    expect(recorded.next).toMatch(/No model is configured/);
    expect(await offline.ok<StatusView>('memory_status')).toMatchObject({
      model_configured: false,
      background_worker: 'stopped',
      jobs: { pending: 1 },
    });
    expect(await offline.ok('memory_search', { query: '结论' })).toEqual({ hits: [] });
    await offline.close();
    expect(offline.stderr()).toContain('1 memory job(s) stay queued until a model is configured');
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare("SELECT status FROM memory_jobs WHERE kind = 'extraction'").all())).toEqual([
      { status: 'pending' },
    ]);

    model().always(byRole({ extraction: extract, consolidation: createAll }));
    const online = await connectMcp(repo, { env: env() });
    // One pending turn younger than 30 s is not due yet; the exit pass takes it when the client leaves.
    await online.close();
    expect(online.stderr()).toContain('processing 1 memory job');
    expect(online.stderr()).toMatch(/exit pass: 2 of 2 memory job\(s\) done/);
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare('SELECT kind, status FROM memory_jobs ORDER BY kind DESC').all()).toEqual([
        { kind: 'extraction', status: 'succeeded' },
        { kind: 'consolidation', status: 'succeeded' },
      ]);
      expect(db.prepare("SELECT kind, title FROM memory_items WHERE status = 'active'").all()).toEqual([
        { kind: 'user_preference', title: '回答先给结论' },
      ]);
    });
  });

  it('forgets on request when allowed: the memory leaves search at once, the RAW turn stays', async () => {
    const repo = tempRepo();
    model().always(byRole({ extraction: extract, consolidation: createAll }));
    const mcp = await connectMcp(repo, { env: env(), args: ['--allow-forget'] });
    try {
      await mcp.ok('memory_record_turn', { user: PREFERENCE, assistant: '好的' });
      await mcp.ok('memory_record_turn', { user: DECISION, assistant: 'Noted.' });
      const hit = await until(async () => (await mcp.ok<{ hits: Hit[] }>('memory_search', { query: '结论' })).hits[0], 'the preference');
      expect(await mcp.ok('memory_forget', { id: hit.id })).toMatchObject({ id: hit.id, kind: 'user_preference', raw_turns_kept: true });
      expect(await mcp.ok('memory_search', { query: '结论' })).toEqual({ hits: [] });
      expect(textOf(await mcp.call('memory_read', { id: hit.id }))).toMatch(/not usable here/);
    } finally {
      await mcp.close();
    }
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM turns').get())).toEqual({ n: 2 });
  });

  it('status gives a short last-error line in normal mode and the RAW error only with AUTOPATCH_DEBUG=true (M-9.7)', async () => {
    const repo = tempRepo();
    const body = '{"error":{"message":"provider overloaded \u001b[31mRED"}}';
    model().always(byRole({ extraction: () => ({ status: 503, body }) }));
    const normal = await connectMcp(repo, { env: env() });
    try {
      await normal.ok('memory_record_turn', { user: PREFERENCE, assistant: '好的' });
      await normal.ok('memory_record_turn', { user: DECISION, assistant: 'Noted.' });
      const status = await until(async () => {
        const s = await normal.ok<StatusView & { last_error: string | null }>('memory_status');
        return s.last_error !== null ? s : undefined;
      }, 'the failed extraction');
      expect(status.last_error).toMatch(/^a background job failed and will be retried; start the server with AUTOPATCH_DEBUG=true/);
      expect(JSON.stringify(status)).not.toContain('overloaded');
    } finally {
      await normal.close();
    }
    const debug = await connectMcp(repo, { env: { ...env(), AUTOPATCH_DEBUG: 'true' } });
    try {
      const status = await debug.ok<{ last_error: string }>('memory_status');
      expect(status.last_error).toContain('provider overloaded \u001b[31mRED');
    } finally {
      await debug.close();
    }
  });

  it('status lists failed jobs with their reason and the retry command (M-9.4a)', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: PREFERENCE }), '好的');
    await memory.close();
    // A job whose answers were unusable 6 times: retry_wait with a retry time that never comes.
    const jobId = withRawDb(dbPathOf(repo), (db) => {
      db.prepare(`UPDATE memory_jobs SET status = 'retry_wait', available_at = ?, attempt_count = 6, diagnostics = ?`).run(
        Number.MAX_SAFE_INTEGER,
        JSON.stringify({
          purpose: 'memory_extraction',
          error: 'the answer held no JSON object\nsecond line',
          unusable: 6,
          batchCap: 1,
          failed: true,
        }),
      );
      return (db.prepare('SELECT id FROM memory_jobs').get() as { id: string }).id;
    });
    const mcp = await connectMcp(repo);
    try {
      const status = await mcp.ok<StatusView & { failed_jobs: unknown[] }>('memory_status');
      expect(status.jobs).toMatchObject({ failed: 1, pending: 0 });
      expect(status.failed_jobs).toEqual([
        {
          id: jobId,
          kind: 'extraction',
          attempts: 6,
          reason: 'the answer held no JSON object',
          recover: `autopatch-j memory retry ${jobId} --repo ${repo}`,
        },
      ]);
    } finally {
      await mcp.close();
    }
  });
});
