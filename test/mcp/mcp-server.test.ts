import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { collect } from '../helpers/child.js';
import { byRole, payloadOf, roleOf, runCli } from '../helpers/cli.js';
import { FakeOpenAi, type RecordedRequest } from '../helpers/fake-openai.js';
import { dbPathOf, sha256, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { CLI, connectMcp, textOf, until } from './mcp-client.js';

let model: FakeOpenAi;
beforeEach(async () => {
  model = await new FakeOpenAi().start();
});
afterEach(async () => {
  await model.stop();
});

const modelEnv = (): Record<string, string> => ({
  AUTOPATCH_LLM_BASE_URL: model.url,
  AUTOPATCH_LLM_API_KEY: 'sk-mcp-test',
  AUTOPATCH_LLM_MODEL: 'fake-model',
});

interface ExtractionPayload { turns: { turn_id: string; user: string }[] }
interface ConsolidationPayload { candidates: { candidate_id: string; title: string; aliases: string[] }[] }

const PREFERENCE = '以后回答先给结论。';
const DECISION = 'We decided to use PostgreSQL 16 for the billing service.';

/** Extraction: a preference for every "以后…。" sentence, a decision for every "We decided to ….". */
const extract = (r: RecordedRequest) => {
  const candidates = payloadOf<ExtractionPayload>(r).turns.flatMap((t) => {
    const out: object[] = [];
    const pref = /以后[^。]*。/u.exec(t.user);
    if (pref) {
      out.push({ kind: 'user_preference', title: pref[0].replace(/^以后|。$/gu, ''), content: pref[0], aliases: ['回答风格'],
        sources: [{ turn_id: t.turn_id, role: 'user', quote: pref[0] }] });
    }
    const decision = /We decided to ([^.]*)\./u.exec(t.user);
    if (decision) {
      out.push({ kind: 'project_decision', title: `Use ${decision[1]!.replace(/^use /u, '')}`, content: decision[0], aliases: ['database'],
        sources: [{ turn_id: t.turn_id, role: 'user', quote: decision[0] }] });
    }
    return out;
  });
  return { text: JSON.stringify({ thread_compaction: 'The user set an answer style and chose a database.', candidates }) };
};
const createAll = (r: RecordedRequest) => ({
  text: JSON.stringify({
    operations: payloadOf<ConsolidationPayload>(r).candidates.map((c) => ({
      operation: 'create', candidate_ids: [c.candidate_id], target_id: null, title: c.title, content: c.title, synopsis: '', aliases: c.aliases, keywords: [],
    })),
  }),
});

interface StatusView { health: string; items: Record<string, number>; jobs: Record<string, number>; turns: Record<string, number>; model_configured: boolean; background_worker: string; recovery: { recover: string } | null; degraded_reason: string | null }
interface Hit { id: string; kind: string; title: string; match: string }
interface ReadView { id: string; kind: string; title: string; non_factual: boolean; sources: { turn_id: string; role: string; excerpt: string }[] }

describe('autopatch-j mcp: the protocol surface', () => {
  it('lists the tools with schemas and the resources; memory_forget only with --allow-forget', async () => {
    const repo = tempRepo();
    const plain = await connectMcp(repo);
    try {
      const tools = (await plain.client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(['memory_read', 'memory_record_turn', 'memory_search', 'memory_status']);
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description!.length, tool.name).toBeGreaterThan(80);
        expect(tool.outputSchema, tool.name).toBeDefined();
      }
      const record = tools.find((t) => t.name === 'memory_record_turn')!;
      expect(record.inputSchema).toMatchObject({
        required: ['user', 'assistant'],
        properties: { intent: { enum: ['code_explain', 'general_chat'] }, user: { minLength: 1 } },
      });
      expect(tools.find((t) => t.name === 'memory_search')!.inputSchema).toMatchObject({ required: ['query'], properties: { query: { maxLength: 256 } } });
      expect(tools.find((t) => t.name === 'memory_search')!.annotations).toMatchObject({ readOnlyHint: true });
      expect((await plain.client.listResources()).resources.map((r) => r.uri)).toEqual(['memory://routing', 'memory://items']);
      expect((await plain.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['memory://item/{id}']);
      const unknown = await plain.call('memory_forget', { id: 'mabcd' });
      expect(unknown.isError).toBe(true);
    } finally {
      await plain.close();
    }
    const forgetful = await connectMcp(repo, { args: ['--allow-forget'] });
    try {
      const forget = (await forgetful.client.listTools()).tools.find((t) => t.name === 'memory_forget');
      expect(forget?.annotations).toMatchObject({ destructiveHint: true });
    } finally {
      await forgetful.close();
    }
  });

  it('writes nothing but JSON-RPC to stdout and ends when stdin closes', async () => {
    const repo = tempRepo();
    const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'memory_record_turn', arguments: { user: '解释一下 parse', assistant: 'parse 读取输入。' } } });
    send({ id: 3, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'parse' } } });
    send({ id: 4, method: 'resources/read', params: { uri: 'memory://routing' } });
    child.stdin.end();
    const result = await collect(child, 30_000);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(4);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // Answers may come in any order (JSON-RPC matches them by id); each request gets exactly one.
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id).sort()).toEqual([1, 2, 3, 4]);
    expect(result.stderr).toContain('autopatch-j mcp: serving');
    expect(result.stderr).toContain('1 memory job(s) stay queued until a model is configured');
  });
  it('a missing folder or an invalid setting is a usage error on stderr, with nothing on stdout', async () => {
    const missing = await runCli(['mcp', '--repo', join(tempRepo(), 'no-such-folder')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^autopatch-j mcp: --repo .*no-such-folder is not a folder/);
    expect(missing.stdout).toBe('');
    const invalid = await runCli(['mcp', '--repo', tempRepo()], { env: { ...modelEnv(), AUTOPATCH_LLM_EXTRA_BODY: '[1]' } });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/invalid setting AUTOPATCH_LLM_EXTRA_BODY/);
    expect(invalid.stdout).toBe('');
  });
});

describe('autopatch-j mcp: Memory through the tools', () => {
  it('records a Chinese preference and an English decision; the worker derives both; search and read find them with their quotes', async () => {
    const repo = tempRepo();
    model.always(byRole({ extraction: extract, consolidation: createAll }));
    const mcp = await connectMcp(repo, { env: modelEnv() });
    try {
      const first = await mcp.ok<{ turn_id: string; sequence: number; intent: string; state: string }>('memory_record_turn', { user: `这个项目的代码我看过了。${PREFERENCE}`, assistant: '好的，以后我先给结论。' });
      expect(first).toMatchObject({ sequence: 1, intent: 'general_chat', state: 'completed' });
      const second = await mcp.ok<{ sequence: number }>('memory_record_turn', { user: `Thanks. ${DECISION} Explain the schema next.`, assistant: 'Noted: PostgreSQL 16.', intent: 'code_explain' });
      expect(second.sequence).toBe(2);

      // Two pending turns make extraction due at once (M-5.1); consolidation follows in the background.
      const status = await until(async () => {
        const s = await mcp.ok<StatusView>('memory_status');
        return s.items['user_preference'] === 1 && s.items['project_decision'] === 1 ? s : undefined;
      }, 'both memories');
      expect(status).toMatchObject({ health: 'healthy', model_configured: true, background_worker: 'running' });
      const extraction = model.requests.find((r) => roleOf(r) === 'extraction')!;
      expect(payloadOf<ExtractionPayload>(extraction).turns.map((t) => t.user)).toEqual([`这个项目的代码我看过了。${PREFERENCE}`, `Thanks. ${DECISION} Explain the schema next.`]);

      const zh = (await mcp.ok<{ hits: Hit[] }>('memory_search', { query: '结论' })).hits;
      expect(zh).toMatchObject([{ kind: 'user_preference', title: '回答先给结论' }]);
      const preference = await mcp.ok<ReadView>('memory_read', { id: zh[0]!.id });
      expect(preference).toMatchObject({ kind: 'user_preference', non_factual: false, sources: [{ turn_id: first.turn_id, role: 'user' }] });
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
      expect(textOf(repair)).toMatch(/'code_audit' is a repair intent and is refused: repair work \(code_audit, patch_explain, patch_revise\) never reads or writes memory/);
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
    expect(await offline.ok<StatusView>('memory_status')).toMatchObject({ model_configured: false, background_worker: 'stopped', jobs: { pending: 1 } });
    expect(await offline.ok('memory_search', { query: '结论' })).toEqual({ hits: [] });
    await offline.close();
    expect(offline.stderr()).toContain('1 memory job(s) stay queued until a model is configured');
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare("SELECT status FROM memory_jobs WHERE kind = 'extraction'").all())).toEqual([{ status: 'pending' }]);

    model.always(byRole({ extraction: extract, consolidation: createAll }));
    const online = await connectMcp(repo, { env: modelEnv() });
    // One pending turn younger than 30 s is not due yet; the exit pass takes it when the client leaves.
    await online.close();
    expect(online.stderr()).toContain('processing 1 memory job');
    expect(online.stderr()).toMatch(/exit pass: 2 of 2 memory job\(s\) done/);
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare("SELECT kind, status FROM memory_jobs ORDER BY kind DESC").all()).toEqual([
        { kind: 'extraction', status: 'succeeded' },
        { kind: 'consolidation', status: 'succeeded' },
      ]);
      expect(db.prepare("SELECT kind, title FROM memory_items WHERE status = 'active'").all()).toEqual([{ kind: 'user_preference', title: '回答先给结论' }]);
    });
  });

  it('forgets on request when allowed: the memory leaves search at once, the RAW turn stays', async () => {
    const repo = tempRepo();
    model.always(byRole({ extraction: extract, consolidation: createAll }));
    const mcp = await connectMcp(repo, { env: modelEnv(), args: ['--allow-forget'] });
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
});

describe('autopatch-j mcp: status and shutdown', () => {
  it('status gives a short last-error line in normal mode and the RAW error only with AUTOPATCH_DEBUG=true (M-9.7)', async () => {
    const repo = tempRepo();
    const body = '{"error":{"message":"provider overloaded \u001b[31mRED"}}';
    model.always(byRole({ extraction: () => ({ status: 503, body }) }));
    const normal = await connectMcp(repo, { env: modelEnv() });
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
    const debug = await connectMcp(repo, { env: { ...modelEnv(), AUTOPATCH_DEBUG: 'true' } });
    try {
      const status = await debug.ok<{ last_error: string }>('memory_status');
      expect(status.last_error).toContain('provider overloaded \u001b[31mRED');
    } finally {
      await debug.close();
    }
  });

  it('a termination signal ends the server at once, even with a model call in flight; no exit pass, nothing lost', async () => {
    const repo = tempRepo();
    model.always(byRole({ extraction: () => ({ hang: true }) }));
    const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], { env: { PATH: process.env.PATH ?? '', ...modelEnv() }, stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const done = collect(child, 30_000);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'memory_record_turn', arguments: { user: PREFERENCE, assistant: '好的' } } });
    send({ id: 3, method: 'tools/call', params: { name: 'memory_record_turn', arguments: { user: DECISION, assistant: 'Noted.' } } });
    // Two turns make extraction due: the background worker calls the model, which never answers.
    await until(async () => (model.requests.some((r) => roleOf(r) === 'extraction') ? true : undefined), 'the extraction call');
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('processing');
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare("SELECT count(*) AS n FROM turns WHERE state = 'completed'").get()).toEqual({ n: 2 });
      // The claimed batch goes back to the queue when its lease expires.
      expect(db.prepare('SELECT status FROM memory_jobs').all()).toEqual([{ status: 'leased' }, { status: 'leased' }]);
    });
  });
});

describe('autopatch-j mcp: a degraded Memory (M-2.4)', () => {
  it('tools answer with errors naming the reason and the recovery command; files stay byte-identical; a recovered database is used at once', async () => {
    const repo = tempRepo();
    const setup = MemoryManager.open({ repoRoot: repo });
    await setup.close();
    withRawDb(dbPathOf(repo), (db) => db.exec('CREATE TABLE foo (x)'));
    const dataDir = join(repo, '.autopatch-j');
    const snapshot = (): Record<string, string> =>
      Object.fromEntries(readdirSync(dataDir).sort().map((name) => [name, sha256(join(dataDir, name))]));
    const before = snapshot();

    const mcp = await connectMcp(repo, { env: modelEnv(), args: ['--allow-forget'] });
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
    const again = await connectMcp(repo, { env: modelEnv() });
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
    expect(model.requests).toHaveLength(0);
  });
});

describe('autopatch-j mcp: concurrency (M-3.5)', () => {
  it('two clients and one CLI session on one project lose nothing', async () => {
    const repo = tempRepo();
    model.always(byRole({ main: () => ({ text: 'ok' }) }));
    const perClient = 15;
    const cliLines = 6;
    const [a, b] = await Promise.all([connectMcp(repo, { env: modelEnv() }), connectMcp(repo, { env: modelEnv() })]);
    try {
      const record = async (name: string, session: typeof a): Promise<void> => {
        for (let i = 0; i < perClient; i += 1) await session.ok('memory_record_turn', { user: `${name} turn ${i}`, assistant: `${name} answer ${i}` });
      };
      const input = Array.from({ length: cliLines }, (_, i) => `cli line ${i}`).join('\n') + '\n';
      const [cli] = await Promise.all([runCli(['--repo', repo], { env: modelEnv(), input }), record('client-a', a), record('client-b', b)]);
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
