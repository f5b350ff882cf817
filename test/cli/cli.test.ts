import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliRun, byRole, createAll, payloadOf, roleOf, runCli } from '../helpers/cli.js';
import { type RecordedRequest, fakeServerEachTest } from '../helpers/fake-openai.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-cli-test', AUTOPATCH_LLM_MODEL: 'fake-model' });

const env = fake.env;

interface ExtractionPayload {
  turns: { turn_id: string; user: string }[];
}

/** Extraction: a preference for every "以后…" sentence and a discussion for every "我们在比较…" sentence. */
const extractPreferences = (r: RecordedRequest) => {
  const payload = payloadOf<ExtractionPayload>(r);
  const candidates = payload.turns.flatMap((t) => {
    const out: object[] = [];
    const pref = /以后[^。]*。/.exec(t.user);
    if (pref)
      out.push({
        kind: 'user_preference',
        title: pref[0].replace(/^以后|。$/g, ''),
        content: pref[0],
        aliases: [],
        sources: [{ turn_id: t.turn_id, role: 'user', quote: pref[0] }],
      });
    const discussion = /我们在比较[^。]*/.exec(t.user);
    if (discussion)
      out.push({
        kind: 'discussion_context',
        title: discussion[0],
        content: discussion[0],
        aliases: [],
        sources: [{ turn_id: t.turn_id, role: 'user', quote: discussion[0] }],
      });
    return out;
  });
  return { text: JSON.stringify({ thread_compaction: '', candidates }) };
};
const mains = (): RecordedRequest[] => fake.server.requests.filter((r) => roleOf(r) === 'main');
const systemOf = (r: RecordedRequest): string => String(r.body.messages?.[0]?.content);

function ok(run: CliRun): CliRun {
  expect(run.code, `stderr: ${run.stderr}`).toBe(0);
  return run;
}

describe('autopatch-j ask and the Memory across processes', () => {
  it('a preference stated in one process is in the routing context a later process sends', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({ main: () => ({ text: '好的，以后先给结论。' }), extraction: extractPreferences, consolidation: createAll }),
    );
    const first = ok(await runCli(['ask', '--repo', repo, '以后回答先给结论。'], { env: env() }));
    expect(first.stdout).toContain('好的，以后先给结论。');
    expect(first.stderr).toMatch(/^memory: 2 jobs processed$/m);
    fake.server.requests.length = 0;
    ok(await runCli(['ask', '--repo', repo, '解释一下 parse 函数'], { env: env() }));
    expect(systemOf(mains()[0]!)).toContain('回答先给结论');
    expect(mains()[0]!.body.messages!.map((m) => m.content)).toContain('以后回答先给结论。');
  });

  it('a degraded database refuses ordinary chat with exit code 3; a repair request still works', async () => {
    const repo = tempRepo();
    ok(await runCli(['--repo', repo], { input: '/memory status\n' }));
    withRawDb(dbPathOf(repo), (db) => db.exec('CREATE TABLE foo (x)'));
    fake.server.always(byRole({ main: () => ({ text: 'audit: no findings' }) }));
    const refused = await runCli(['ask', '--repo', repo, 'hello'], { env: env() });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/Memory is degraded: unknown table foo/);
    expect(refused.stderr).toContain('memory clear --confirm');
    expect(mains()).toHaveLength(0);
    fake.server.always(byRole({ classifier: () => ({ text: '{"intent":"code_audit"}' }), main: () => ({ text: 'audit: no findings' }) }));
    const repair = ok(await runCli(['ask', '--repo', repo, 'audit the code'], { env: env() }));
    expect(repair.stdout).toContain('audit: no findings');
    const list = await runCli(['memory', 'list', '--repo', repo]);
    expect(list.code).toBe(3);
    ok(await runCli(['memory', 'status', '--repo', repo]));
  });

  it('a degraded database: the exit pass still says how many jobs stay queued (read from the verified snapshot)', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    for (const text of ['以后用 pnpm。', '以后先给结论。', '以后用中文回答。'])
      memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: text }), '好的');
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => db.exec('CREATE TABLE foo (x)'));
    fake.server.always(byRole({ classifier: () => ({ text: '{"intent":"code_audit"}' }), main: () => ({ text: 'audit: no findings' }) }));
    const run = ok(await runCli(['ask', '--json', '--repo', repo, 'audit the code'], { env: env() }));
    expect(JSON.parse(run.stdout)).toMatchObject({ memoryJobs: { processed: 0, queued: 3, failed: 0 } });
    expect(run.stderr).toMatch(/^memory: 3 still queued \(Memory is degraded\) — autopatch-j memory status explains$/m);
  });

  it('the exit pass with a hanging model ends within the timeout and leaves the job in retry', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answer' }), extraction: () => ({ hang: true }) }));
    const run = ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env({ AUTOPATCH_LLM_TIMEOUT_MS: '1000' }) }));
    expect(run.ms).toBeLessThan(10_000);
    expect(run.stderr).toMatch(
      /^memory: 1 still queued \(the provider timed out; a running session or the next start takes them\) — autopatch-j memory status explains$/m,
    );
    const status = JSON.parse(ok(await runCli(['memory', 'status', '--repo', repo, '--json'])).stdout) as { jobs: { retryWait: number } };
    expect(status.jobs.retryWait).toBe(1);
  });

  it('new jobs that wait behind a job waiting to retry: the line says so, not "failed"', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answer' }), extraction: () => ({ text: 'not json at all' }) }));
    const first = ok(await runCli(['ask', '--repo', repo, 'first question'], { env: env() }));
    expect(first.stderr).toMatch(/^memory: 1 still queued \(ModelAnswerError: the answer holds no JSON object; /m);
    for (const [question, queued] of [
      ['second question', 1],
      ['third question', 2],
    ] as const) {
      const run = ok(await runCli(['ask', '--repo', repo, question], { env: env() }));
      expect(run.stderr).toMatch(
        new RegExp(
          `^memory: ${queued} still queued \\(they wait behind 1 job of their thread that waits to retry; ` +
            'a running session or the next start takes them\\) — autopatch-j memory status explains$',
          'm',
        ),
      );
      expect(run.stderr).not.toMatch(/\(failed/);
    }
  });

  it('no provider configured: memory commands work and the first request says which variables to set', async () => {
    const repo = tempRepo();
    const run = await runCli(['--repo', repo, '--lines'], { input: 'hello\n/memory status\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Set AUTOPATCH_LLM_API_KEY');
    expect(run.stdout).toContain('Memory: healthy');
    const asked = await runCli(['ask', '--repo', repo, 'hi']);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('AUTOPATCH_LLM_BASE_URL');
  });

  it('debug mode shows the classifier fallback reason and the final route; normal mode one short line', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({
        classifier: () => ({ status: 500, body: '{"error":{"message":"\u001b[1mclassifier down"}}' }),
        main: () => ({ text: 'general answer' }),
      }),
    );
    const normal = ok(await runCli(['ask', '--repo', repo, 'audit this'], { env: env() }));
    expect(normal.stdout).toContain('general answer');
    expect(normal.stderr).toContain('the intent classifier failed; the request went to the general assistant');
    expect(normal.stderr).not.toContain('classifier down');
    const debug = ok(await runCli(['ask', '--repo', repo, 'audit this'], { env: env({ AUTOPATCH_DEBUG: 'true' }) }));
    expect(debug.stderr).toMatch(/\[debug\] route: general_chat \(fallback: classifier call failed: the model provider returned HTTP 500/);
    expect(debug.stderr).toContain('\\x1b[1mclassifier down');
  });

  it('an invalid AUTOPATCH_LLM_EXTRA_BODY is a clear startup message with exit code 2', async () => {
    const run = await runCli(['ask', '--repo', tempRepo(), 'hi'], { env: env({ AUTOPATCH_LLM_EXTRA_BODY: '{not json' }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^autopatch-j: invalid setting AUTOPATCH_LLM_EXTRA_BODY: is not valid JSON/);
  });
});

describe('the interactive session from a pipe', () => {
  it('runs requests and commands line by line, end to end', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({
        main: (r) => ({ text: `echo: ${r.body.messages!.at(-1)!.content}` }),
        extraction: extractPreferences,
        consolidation: createAll,
      }),
    );
    const run = ok(
      await runCli(['--repo', repo, '--lines'], {
        env: env(),
        input: '以后回答先给结论。\n/memory status\n第二个问题\n/nwe\n/exit\nnever read\n',
      }),
    );
    expect(run.stdout).toContain('echo: 以后回答先给结论。');
    expect(run.stdout).toContain('echo: 第二个问题');
    expect(run.stdout).toContain('Memory: healthy');
    expect(run.stderr).toContain('Unknown command /nwe. Did you mean /new?');
    expect(run.stdout).not.toContain('never read');
    expect(run.stdout).not.toContain('autopatch-j>');
    const turns = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text FROM turns ORDER BY sequence').all());
    expect(turns).toEqual([{ user_text: '以后回答先给结论。' }, { user_text: '第二个问题' }]);
  });

  it('/new hides the old discussion but keeps preferences (M-3.4)', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'ok' }), extraction: extractPreferences, consolidation: createAll }));
    const run = ok(
      await runCli(['--repo', repo, '--lines'], { env: env(), input: '我们在比较方案A和方案B。以后回答先给结论。\n/new\n接着说\n' }),
    );
    expect(run.stdout).toContain('Started a new thread');
    expect(run.stdout).toContain('Kept: your preferences');
    const last = mains().at(-1)!;
    expect(systemOf(last)).toContain('回答先给结论');
    expect(systemOf(last)).not.toContain('比较方案A和方案B');
    expect(last.body.messages!.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('an audit proposes a patch; /apply writes it only while it still matches', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'calc.js'), 'export const add = (a, b) => a - b;\n');
    fake.server.always(
      byRole({
        classifier: () => ({ text: '{"intent":"code_audit"}' }),
        main: (r) =>
          r.body.messages!.some((m) => m.role === 'tool')
            ? { text: 'Found one bug; patch proposed.' }
            : {
                text: '',
                toolCalls: [
                  {
                    name: 'propose_patch',
                    arguments: JSON.stringify({ summary: 'fix add', edits: [{ path: 'calc.js', search: 'a - b', replace: 'a + b' }] }),
                  },
                ],
              },
      }),
    );
    const run = ok(await runCli(['--repo', repo, '--lines'], { env: env(), input: 'audit calc.js\n/patch\n/apply\n/apply\n' }));
    expect(run.stdout).toContain('Found one bug; patch proposed.');
    expect(run.stdout).toContain('Pending patch #1: fix add');
    expect(run.stdout).toContain('Applied patch #1 to 1 file(s).');
    expect(run.stderr).toContain('There is no pending patch.');
    expect(readFileSync(join(repo, 'calc.js'), 'utf8')).toBe('export const add = (a, b) => a + b;\n');
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM turns').get())).toEqual({ n: 0 });
  });

  it('/reset keeps memory.db, exports and history, and says how to clear Memory', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'), { recursive: true });
    writeFileSync(join(repo, '.autopatch-j', 'cli_history'), 'old line\n');
    const run = ok(await runCli(['--repo', repo, '--lines'], { env: env(), input: '/memory export\n/reset\n' }));
    expect(run.stdout).toMatch(/Exported 0 turn\(s\)/);
    expect(run.stdout).toContain('Memory is kept');
    expect(run.stdout).toContain('/memory clear --confirm');
    expect(existsSync(dbPathOf(repo))).toBe(true);
    expect(readdirSync(join(repo, '.autopatch-j', 'exports'))).toHaveLength(1);
    expect(existsSync(join(repo, '.autopatch-j', 'cli_history'))).toBe(true);
  });
});

describe('autopatch-j memory …', () => {
  it('status in normal vs debug mode (M-9.7)', async () => {
    const repo = tempRepo();
    const body = '{"error":{"message":"[bold]overloaded[/bold] \\u001b[31mRED\\u001b[0m"}}';
    fake.server.always(byRole({ main: () => ({ text: 'answer' }), extraction: () => ({ status: 503, body }) }));
    ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env() }));
    const normal = ok(await runCli(['memory', 'status', '--repo', repo]));
    expect(normal.stdout).toContain('run with AUTOPATCH_DEBUG=true to see the RAW error');
    expect(normal.stdout).not.toContain('overloaded');
    const debug = ok(await runCli(['memory', 'status', '--repo', repo], { env: { AUTOPATCH_DEBUG: 'true' } }));
    expect(debug.stdout).toContain('status: 503');
    expect(debug.stdout).toContain('[bold]overloaded[/bold] \\x1b[31mRED\\x1b[0m');
    expect(debug.stdout).not.toContain('\u001b[31m');
  });

  it('clear without and with --confirm', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answer' }) }));
    ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env() }));
    const dry = await runCli(['memory', 'clear', '--repo', repo]);
    expect(dry.code).toBe(2);
    expect(dry.stdout + dry.stderr).toMatch(/would delete all of Memory[\s\S]*1 RAW turn\(s\)[\s\S]*keeps:[\s\S]*exports/);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM turns').get())).toEqual({ n: 1 });
    const done = ok(await runCli(['memory', 'clear', '--confirm', '--repo', repo]));
    expect(done.stdout).toMatch(/Memory cleared: generation 2/);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM turns').get())).toEqual({ n: 0 });
  });

  it('--json outputs parse for status, list, show, forget, export and clear', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'ok' }), extraction: extractPreferences, consolidation: createAll }));
    ok(await runCli(['ask', '--repo', repo, '以后代码注释用英文。'], { env: env() }));
    const json = async (args: string[]): Promise<unknown> =>
      JSON.parse(ok(await runCli(['memory', ...args, '--repo', repo, '--json'])).stdout);
    expect(await json(['status'])).toMatchObject({ health: 'healthy', items: { user_preference: 1 } });
    const list = (await json(['list'])) as { id: string; title: string }[];
    expect(list).toMatchObject([{ kind: 'user_preference', title: '代码注释用英文' }]);
    const id = list[0]!.id;
    expect(await json(['show', id.slice(0, 5)])).toMatchObject({ id, sources: [{ role: 'user', quote: '以后代码注释用英文。' }] });
    const table = ok(await runCli(['memory', 'list', '--repo', repo])).stdout;
    expect(table).toMatch(new RegExp(`^ID\\s+KIND\\s+TITLE\\s+UPDATED\\n${id}\\s+preference\\s+代码注释用英文\\s+\\d{4}-`, 'm'));
    const shown = ok(await runCli(['memory', 'show', id, '--repo', repo])).stdout;
    expect(shown).toContain('“以后代码注释用英文。”');
    expect(await json(['export'])).toMatchObject({ path: expect.stringContaining('memory-export-'), turns: 1 });
    const forgotten = ok(await runCli(['memory', 'forget', id, '--repo', repo]));
    expect(forgotten.stdout).toContain('The RAW turns it came from are kept');
    expect(await json(['list'])).toEqual([]);
    expect(await json(['clear', '--confirm'])).toMatchObject({ generation: 2, recreated: false });
    const notFound = await runCli(['memory', 'show', 'mzzzz', '--repo', repo, '--json']);
    expect(notFound.code).toBe(1);
    expect(JSON.parse(notFound.stdout)).toMatchObject({ error: 'not_found' });
  });

  it('usage errors exit with 2', async () => {
    const missing = await runCli(['memory', 'status', '--repo', join(tempRepo(), 'no-such-folder')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/is not a folder/);
    expect((await runCli(['memory', 'show'])).code).toBe(2);
    expect((await runCli(['memory', 'frobnicate'])).code).toBe(2);
    expect((await runCli(['--version'])).code).toBe(0);
    expect((await runCli(['--help'])).code).toBe(0);
    expect((await runCli(['memory'])).code).toBe(2);
    expect((await runCli(['ask'])).code).toBe(2);
  });
});
