import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../helpers/child.js';
import { CLI_PATH, type CliRun, byRole, roleOf, runCli } from '../helpers/cli.js';
import { type RecordedRequest, fakeServerEachTest } from '../helpers/fake-openai.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-test', AUTOPATCH_LLM_MODEL: 'fake-model' });

const env = fake.env;
const of = (role: ReturnType<typeof roleOf>): RecordedRequest[] => fake.server.requests.filter((r) => roleOf(r) === role);
const lastUser = (r: RecordedRequest): string => String(r.body.messages!.at(-1)!.content);
const turns = (repo: string): { user_text: string; state: string }[] =>
  withRawDb(
    dbPathOf(repo),
    (db) => db.prepare('SELECT user_text, state FROM turns ORDER BY sequence').all() as { user_text: string; state: string }[],
  );

function ok(run: CliRun): CliRun {
  expect(run.code, `stderr: ${run.stderr}`).toBe(0);
  return run;
}

describe('input', () => {
  it('a pipe into the session is ONE request (the whole stdin); --lines makes one request per line', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answer' }) }));
    ok(await runCli(['--repo', repo], { env: env(), input: 'line one\nline two\nline three\nline four\n' }));
    expect(of('main').map(lastUser)).toEqual(['line one\nline two\nline three\nline four']);
    expect(of('classifier')).toHaveLength(1);
    expect(turns(repo)).toHaveLength(1);
    fake.server.requests.length = 0;
    ok(await runCli(['--repo', repo, '--lines'], { env: env(), input: 'a\nb\n' }));
    expect(of('main').map(lastUser)).toEqual(['a', 'b']);
  });

  it('ask reads stdin with "-" or with no text, and autopatch-j "text" is ask', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: (r) => ({ text: `got: ${lastUser(r)}` }) }));
    expect(ok(await runCli(['ask', '--repo', repo, '-'], { env: env(), input: 'from\nstdin\n' })).stdout).toContain('got: from\nstdin');
    expect(ok(await runCli(['ask', '--repo', repo], { env: env(), input: 'no text given' })).stdout).toContain('got: no text given');
    expect(ok(await runCli(['--repo', repo, 'explain src/calc.js'], { env: env() })).stdout).toContain('got: explain src/calc.js');
  });
});

describe('cancelling', () => {
  it('ask … | head -5 ends quietly with exit 0 and the turn failed, not open', async () => {
    const repo = tempRepo();
    const long = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long answer`).join('\n');
    fake.server.always(byRole({ main: () => ({ text: long, hangAfter: true }) }));
    const child = spawn(
      'bash',
      ['-c', `"${process.execPath}" "${CLI_PATH}" ask --repo "${repo}" hello | head -5; echo "cli exit \${PIPESTATUS[0]}" >&2`],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const result = await collect(child, 60_000);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(5);
    expect(result.stderr).toContain('cli exit 0');
    expect(result.stderr).not.toMatch(/EPIPE|Error|at .*\.js/);
    expect(turns(repo)).toEqual([{ user_text: 'hello', state: 'failed' }]);
  });
});

describe('time', () => {
  it('a hanging provider costs one classifier and one main timeout; the exit pass does not wait on it again and says so', async () => {
    const repo = tempRepo();
    fake.server.always({ hang: true });
    const run = await runCli(['ask', '--repo', repo, 'hello'], { env: env({ AUTOPATCH_LLM_TIMEOUT_MS: '800' }) });
    expect(run.code).toBe(1);
    expect(of('classifier')).toHaveLength(1);
    expect(of('main')).toHaveLength(1);
    expect(of('extraction')).toHaveLength(0);
    expect(run.stderr).toContain(`The model at ${fake.server.url} did not answer in time`);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe(
      'memory: 1 still queued (the provider timed out earlier, not waiting again; a running session or the next start takes them) — ' +
        'autopatch-j memory status explains',
    );
  });

  it("after a timeout, /new does not wait on the provider again for the old thread's Memory jobs", async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ hang: true }) }));
    const run = await runCli(['--repo', repo, '--lines'], { env: env({ AUTOPATCH_LLM_TIMEOUT_MS: '800' }), input: 'hello\n/new\n' });
    expect(run.stdout).toContain('Started a new thread');
    expect(run.stdout).toContain('1 memory job(s) of the old thread stay queued (the provider did not answer earlier, not waiting again)');
    expect(of('extraction')).toHaveLength(0);
  });

  it('429 and 5xx on a main call are retried (at most 3 times) honouring retry-after, and the retries are shown', async () => {
    const repo = tempRepo();
    let mainCalls = 0;
    fake.server.always(
      byRole({
        main: () => {
          mainCalls += 1;
          if (mainCalls === 1) return { status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '0' } };
          if (mainCalls === 2) return { status: 503, body: '{"error":{"message":"busy"}}', headers: { 'retry-after': '0' } };
          return { text: 'finally' };
        },
      }),
    );
    const run = ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env() }));
    expect(run.stdout).toContain('finally');
    expect(run.stderr).toContain('HTTP 429 from the provider, retrying in 0s (1/3)');
    expect(run.stderr).toContain('HTTP 503 from the provider, retrying in 0s (2/3)');
    expect(of('main')).toHaveLength(3);
    fake.server.requests.length = 0;
    fake.server.always(byRole({ main: () => ({ status: 500, body: '{}', headers: { 'retry-after': '0' } }) }));
    const failed = await runCli(['ask', '--repo', repo, 'again'], { env: env() });
    expect(failed.code).toBe(1);
    expect(of('main')).toHaveLength(4);
    expect(failed.stderr).toContain(`The model provider at ${fake.server.url} failed (HTTP 500) after 3 retries.`);
  });
});

describe('actionable errors', () => {
  it('a refused key names AUTOPATCH_LLM_API_KEY and the URL, and costs one call, not three', async () => {
    const repo = tempRepo();
    fake.server.always({ status: 401, body: '{"error":{"message":"bad key"}}' });
    const run = await runCli(['ask', '--repo', repo, 'hello'], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `The model provider refused the API key (HTTP 401) at ${fake.server.url}/chat/completions. Check AUTOPATCH_LLM_API_KEY.`,
    );
    expect(fake.server.requests).toHaveLength(1);
    expect(run.stderr).toContain('memory: 1 still queued (the provider refused the API key)');
  });

  it('an unreachable provider names the URL; an unknown model names AUTOPATCH_LLM_MODEL', async () => {
    const repo = tempRepo();
    const down = await runCli(['ask', '--repo', repo, 'hello'], { env: env({ AUTOPATCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1' }) });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('The model provider at http://127.0.0.1:9/v1 could not be reached. Check AUTOPATCH_LLM_BASE_URL');
    fake.server.always({ status: 404, body: '{"error":{"message":"The model `fake-model` does not exist","code":"model_not_found"}}' });
    const missing = await runCli(['ask', '--repo', repo, 'hello'], { env: env() });
    expect(missing.stderr).toContain(`The model 'fake-model' was not found at ${fake.server.url} (HTTP 404). Check AUTOPATCH_LLM_MODEL.`);
  });

  it('doctor checks the settings, the provider (one tiny request) and Memory, as ✓/✗ with fixes, and --json', async () => {
    const repo = tempRepo();
    fake.server.always({ text: 'ok' });
    const good = ok(await runCli(['doctor', '--repo', repo], { env: env() }));
    expect(good.stdout).toMatch(/✓ model answers\s+answered in \d+ ms/);
    expect(good.stdout).toContain('All checks passed.');
    expect(fake.server.requests).toHaveLength(1);
    expect(existsSync(dbPathOf(repo))).toBe(false);
    fake.server.always({ status: 401, body: '{}' });
    const bad = await runCli(['doctor', '--repo', repo, '--json'], { env: env() });
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.stdout) as { ok: boolean; checks: { name: string; ok: boolean; fix: string | null }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === 'model answers')).toMatchObject({ ok: false, fix: 'Check AUTOPATCH_LLM_API_KEY.' });
  });
});

describe('show the work', () => {
  it('one line per tool call with its argument and a short result; after a repair run the pending patch and the findings', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'calc.js'), 'export const add = (a, b) => a - b;\n');
    fake.server.always(
      byRole({
        classifier: () => ({ text: '{"intent":"code_audit"}' }),
        main: (r) => {
          const tools = r.body.messages!.filter((m) => m.role === 'tool').length;
          if (tools === 0) return { text: '', toolCalls: [{ name: 'read_file', arguments: '{"path":"calc.js"}' }] };
          if (tools === 1) {
            return {
              text: '',
              toolCalls: [
                {
                  name: 'report_finding',
                  arguments: JSON.stringify({ path: 'calc.js', line: 1, severity: 'high', message: 'add subtracts' }),
                },
                {
                  name: 'propose_patch',
                  arguments: JSON.stringify({ summary: 'fix add', edits: [{ path: 'calc.js', search: 'a - b', replace: 'a + b' }] }),
                },
              ],
            };
          }
          return { text: 'One bug.' };
        },
      }),
    );
    const run = ok(await runCli(['ask', '--repo', repo, 'audit calc.js'], { env: env() }));
    expect(run.stderr).toContain('  read_file calc.js · 2 lines');
    expect(run.stderr).toMatch(/1 finding\n\s+high\s+calc\.js:1\s+add subtracts/);
    expect(run.stderr).toContain('patch #1 pending · 1 file +1 −1 · autopatch-j patch · apply · discard');
    // The patch outlives the process: shown as a unified diff with line numbers, then applied exactly once.
    const shown = ok(await runCli(['patch', '--repo', repo]));
    expect(shown.stdout).toContain('--- a/calc.js');
    expect(shown.stdout).toContain('@@ -1,1 +1,1 @@');
    expect(shown.stdout).toMatch(/^1\s+-export const add = \(a, b\) => a - b;$/m);
    expect(shown.stdout).toMatch(/^\s+1 \+export const add = \(a, b\) => a \+ b;$/m);
    expect(ok(await runCli(['apply', '--repo', repo])).stdout).toContain('Applied patch #1 to 1 file(s).');
    expect(readFileSync(join(repo, 'calc.js'), 'utf8')).toBe('export const add = (a, b) => a + b;\n');
    expect((await runCli(['apply', '--repo', repo])).stderr).toContain('There is no pending patch.');
  });

  it('/patch in a session is a unified diff, not search/replace blocks', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'calc.js'), 'line 1\nline 2\nexport const add = (a, b) => a - b;\nline 4\n');
    fake.server.always(
      byRole({
        classifier: () => ({ text: '{"intent":"code_audit"}' }),
        main: (r) =>
          r.body.messages!.some((m) => m.role === 'tool')
            ? { text: 'done' }
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
    const run = ok(await runCli(['--repo', repo, '--lines'], { env: env(), input: 'audit calc.js\n/patch\n' }));
    expect(run.stderr).toContain('patch #1 pending · 1 file +1 −1 · /patch /apply /discard');
    expect(run.stdout).toContain('@@ -1,4 +1,4 @@');
    expect(run.stdout).toMatch(/^1 1  line 1$/m);
    expect(run.stdout).not.toContain('<<<<<<< search');
  });
});

describe('project root and data folder', () => {
  it('from a subfolder the project is the git top level; read-only commands never create a database; .autopatch-j ignores itself', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'src'));
    const list = ok(await runCli(['memory', 'list'], { cwd: join(repo, 'src') }));
    expect(list.stdout).toContain('No Memory in this project yet');
    ok(await runCli(['memory', 'status'], { cwd: join(repo, 'src') }));
    expect(existsSync(join(repo, '.autopatch-j'))).toBe(false);
    expect(existsSync(join(repo, 'src', '.autopatch-j'))).toBe(false);
    fake.server.always(byRole({ main: () => ({ text: 'ok' }) }));
    ok(await runCli(['ask', 'hello'], { env: env(), cwd: join(repo, 'src') }));
    expect(existsSync(dbPathOf(repo))).toBe(true);
    expect(existsSync(join(repo, 'src', '.autopatch-j'))).toBe(false);
    expect(readFileSync(join(repo, '.autopatch-j', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });
});

describe('surface', () => {
  it('help and version are subcommands; an unknown command gets a suggestion', async () => {
    expect(ok(await runCli(['help'])).stdout).toContain('Usage: autopatch-j');
    expect(ok(await runCli(['version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const typo = await runCli(['memroy']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'memroy'. Did you mean 'autopatch-j memory'?");
  });

  it('an unknown slash command gets a suggestion: /clear → /new or /memory clear', async () => {
    const run = ok(await runCli(['--repo', tempRepo(), '--lines'], { input: '/clear\n/stauts\n' }));
    expect(run.stderr).toContain('Unknown command /clear. Did you mean /new (a new conversation) or /memory clear (delete Memory)?');
    expect(run.stderr).toContain('Unknown command /stauts. Did you mean /memory status?');
  });

  it('ask --json gives the answer, intent, turn id and the Memory jobs; --model picks the model', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'json answer' }) }));
    const run = ok(await runCli(['ask', '--repo', repo, '--json', '--model', 'other-model', 'hello'], { env: env() }));
    const json = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      ok: true,
      answer: 'json answer',
      intent: 'general_chat',
      turnId: expect.any(String),
      memoryJobs: { processed: 1, queued: 0, failed: 0 },
    });
    expect(of('main')[0]!.body.model).toBe('other-model');
  });

  it('--json timestamps are ISO-8601; status text and JSON use the same words for job states', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'ok' }), extraction: () => ({ status: 503, body: '{}' }) }));
    ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env() }));
    const status = JSON.parse(ok(await runCli(['memory', 'status', '--repo', repo, '--json'])).stdout) as {
      createdAt: string;
      jobs: Record<string, number>;
    };
    expect(status.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const text = ok(await runCli(['memory', 'status', '--repo', repo])).stdout;
    for (const [state, count] of Object.entries(status.jobs)) expect(text).toContain(`${count} ${state}`);
    expect(status.jobs['retryWait']).toBe(1);
  });
});
