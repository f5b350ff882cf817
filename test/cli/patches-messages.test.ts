import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { type CliRun, byRole, roleOf, runCli } from '../helpers/cli.js';
import { type RecordedRequest, type Reply, fakeServerEachTest } from '../helpers/fake-openai.js';
import { memoryWithOnePreference } from '../helpers/scripted.js';
import { tempRepo } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-test', AUTOPATCH_LLM_MODEL: 'fake-model' });
const env = fake.env;
const of = (role: ReturnType<typeof roleOf>): RecordedRequest[] => fake.server.requests.filter((r) => roleOf(r) === role);

function ok(run: CliRun): CliRun {
  expect(run.code, `stderr: ${run.stderr}`).toBe(0);
  return run;
}

/** An audit whose model proposes one patch with `summary`, changing `search` to `replace` in calc.js. */
function proposing(summary: string, search: string, replace: string): (r: RecordedRequest) => Reply {
  return byRole({
    classifier: () => ({ text: '{"intent":"code_audit"}' }),
    main: (r) =>
      r.body.messages!.some((m) => m.role === 'tool')
        ? { text: 'Proposed.' }
        : {
            text: '',
            toolCalls: [{ name: 'propose_patch', arguments: JSON.stringify({ summary, edits: [{ path: 'calc.js', search, replace }] }) }],
          },
  });
}

function calcRepo(): string {
  const repo = tempRepo();
  writeFileSync(join(repo, 'calc.js'), 'export const add = (a, b) => a - b;\nexport const twice = (x) => 3 * x;\n');
  return repo;
}

describe('the pending patch', () => {
  it('a new proposal that replaces a pending patch says so', async () => {
    const repo = calcRepo();
    fake.server.always(proposing('fix add', 'a - b', 'a + b'));
    const first = ok(await runCli(['ask', '--repo', repo, 'audit calc.js'], { env: env() }));
    expect(first.stderr).not.toContain('replaces');
    fake.server.always(proposing('fix twice', '3 * x', '2 * x'));
    const second = ok(await runCli(['ask', '--repo', repo, 'audit twice'], { env: env() }));
    expect(second.stderr).toContain('patch #2 pending');
    expect(second.stderr).toContain('patch #2 replaces patch #1 (fix add), which was not applied');
  });

  it('/reset keeps the pending patch and says so; /reset --patch drops it and says which', async () => {
    const repo = calcRepo();
    fake.server.always(proposing('fix add', 'a - b', 'a + b'));
    ok(await runCli(['ask', '--repo', repo, 'audit calc.js'], { env: env() }));
    const kept = ok(await runCli(['--repo', repo, '--lines'], { env: env(), input: '/reset\n/patch\n' }));
    expect(kept.stdout).toContain('The pending patch #1 is kept: /discard drops it (or /reset --patch).');
    expect(kept.stdout).toContain('Pending patch #1: fix add');
    const dropped = ok(await runCli(['--repo', repo, '--lines'], { env: env(), input: '/reset --patch\n' }));
    expect(dropped.stdout).toContain('Cleared the review workspace: the pending patch #1 (discarded, not applied)');
    expect(ok(await runCli(['patch', '--repo', repo])).stdout).toContain('There is no pending patch.');
  });

  it('autopatch-j patch ends with shell commands, /patch in a session with slash commands', async () => {
    const repo = calcRepo();
    fake.server.always(proposing('fix add', 'a - b', 'a + b'));
    ok(await runCli(['ask', '--repo', repo, 'audit calc.js'], { env: env() }));
    const shell = ok(await runCli(['patch', '--repo', repo]));
    expect(shell.stdout).toContain('autopatch-j apply writes it, autopatch-j discard drops it.');
    expect(shell.stdout).not.toMatch(/\/apply|\/discard/);
    const session = ok(await runCli(['--repo', repo, '--lines'], { input: '/patch\n' }));
    expect(session.stdout).toContain('/apply writes it, /discard drops it.');
  });
});

describe('tool lines', () => {
  it('memory_read shows the id it read and what came back, not a "{"', async () => {
    const repo = tempRepo();
    const memory = await memoryWithOnePreference(repo);
    const { id, title } = memory.list()[0]!;
    await memory.close();
    fake.server.always(
      byRole({
        main: (r) =>
          r.body.messages!.some((m) => m.role === 'tool')
            ? { text: 'Conclusions first.' }
            : {
                text: '',
                toolCalls: [
                  { name: 'memory_read', arguments: JSON.stringify({ memory_id: id }) },
                  { name: 'memory_read', arguments: JSON.stringify({ memory_id: 'mnope123' }) },
                ],
              },
      }),
    );
    const run = ok(await runCli(['ask', '--repo', repo, 'how should you answer?'], { env: env() }));
    expect(run.stderr).toContain(`  memory_read ${id} · user_preference “${title}”`);
    expect(run.stderr).toMatch(/ {2}memory_read mnope123 · error: /);
    expect(run.stderr).not.toMatch(/memory_read · \{/);
  });
});

describe('doctor and settings', () => {
  it('reports every invalid setting at once, each with its own fix, and never tells you to run doctor', async () => {
    const run = await runCli(['doctor', '--json', '--repo', tempRepo()], {
      env: env({ AUTOPATCH_LLM_TIMEOUT_MS: 'soon', AUTOPATCH_LLM_REASONING_EFFORT: 'extreme', AUTOPATCH_LLM_MODEL: '' }),
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { checks: { name: string; ok: boolean; detail: string; fix: string | null }[] };
    const settings = report.checks.filter((c) => c.name === 'settings');
    expect(settings.map((c) => c.detail.split(':')[0])).toEqual([
      'AUTOPATCH_LLM_TIMEOUT_MS',
      'AUTOPATCH_LLM_REASONING_EFFORT',
      'AUTOPATCH_LLM_MODEL',
    ]);
    for (const check of settings) {
      expect(check.ok).toBe(false);
      expect(check.fix).toBeTruthy();
      expect(check.detail).not.toContain(check.fix!);
    }
    expect(settings[1]!.fix).toContain('none, minimal, low, medium, high, xhigh, max');
    // The checks that need valid settings are listed as skipped, not left out, and not counted as failed.
    const skipped = report.checks.filter((c) => (c as { skipped?: boolean }).skipped === true);
    expect(skipped.map((c) => c.name)).toEqual(['provider', 'model answers']);
    for (const check of skipped)
      expect(check).toMatchObject({ ok: false, detail: 'not checked: the settings above are invalid', fix: null });
    const text = await runCli(['doctor', '--repo', tempRepo()], {
      env: env({ AUTOPATCH_LLM_TIMEOUT_MS: 'soon', AUTOPATCH_LLM_REASONING_EFFORT: 'extreme', AUTOPATCH_LLM_MODEL: '' }),
    });
    expect(text.stdout).toMatch(/^- provider +not checked: the settings above are invalid$/m);
    expect(text.stdout).toMatch(/^- model answers +not checked: the settings above are invalid$/m);
    expect(text.stdout).toMatch(/^3 check\(s\) failed, 2 skipped\.$/m);
    expect(run.stdout + run.stderr).not.toMatch(/run .*doctor|doctor tests/);
    // Starting a request says all of them too (exit 2).
    const ask = await runCli(['ask', '--repo', tempRepo(), 'hi'], {
      env: env({ AUTOPATCH_LLM_TIMEOUT_MS: 'soon', AUTOPATCH_LLM_REASONING_EFFORT: 'extreme' }),
    });
    expect(ask.code).toBe(2);
    expect(ask.stderr).toMatch(/invalid settings:\n {2}AUTOPATCH_LLM_TIMEOUT_MS: .*\n {2}AUTOPATCH_LLM_REASONING_EFFORT: /);
    expect(fake.server.requests).toHaveLength(0);
  });

  it("an unreachable provider's fix is not the problem said again, and not a pointer to doctor", async () => {
    const run = await runCli(['doctor', '--repo', tempRepo()], { env: env({ AUTOPATCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1' }) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/could not be reached\. — fix: Check\s+AUTOPATCH_LLM_BASE_URL and the network\./);
    expect(run.stdout).not.toContain('doctor');
  });

  it('reasoning efforts are the known values (any case); an empty model name is an error, not the default', () => {
    expect(loadConfig({ AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_LLM_REASONING_EFFORT: 'HIGH' }).llm?.reasoningEffort).toBe('high');
    expect(() => loadConfig({ AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_LLM_REASONING_EFFORT: 'extreme' })).toThrow(
      /AUTOPATCH_LLM_REASONING_EFFORT: 'extreme' is not a reasoning effort/,
    );
    expect(() => loadConfig({ AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_LLM_MODEL: ' ' })).toThrow(/AUTOPATCH_LLM_MODEL: is set but empty/);
    expect(loadConfig({ AUTOPATCH_LLM_API_KEY: 'k' }).llm?.model).toBe('deepseek-chat');
    let error: unknown;
    try {
      loadConfig({ AUTOPATCH_DEBUG: 'maybe', AUTOPATCH_LLM_EXTRA_BODY: '[1]', AUTOPATCH_LLM_BASE_URL: 'ftp://x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual([
      'AUTOPATCH_DEBUG',
      'AUTOPATCH_LLM_EXTRA_BODY',
      'AUTOPATCH_LLM_BASE_URL',
    ]);
  });
});

describe('token usage', () => {
  it('is shown after the answer and in ask --json as the provider reported it; streamed calls ask for it', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({
        classifier: () => ({ text: '{"intent":"general_chat"}', usage: { prompt: 200, completion: 5 } }),
        main: () => ({ text: 'The answer.', usage: { prompt: 1234, completion: 56 } }),
      }),
    );
    const run = ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env() }));
    expect(run.stdout).toBe('The answer.\n');
    expect(run.stderr).toContain('tokens: 1,434 prompt · 61 completion');
    expect(of('main')[0]!.body['stream_options']).toEqual({ include_usage: true });
    const json = ok(await runCli(['ask', '--repo', repo, '--json', 'hello'], { env: env() }));
    expect(JSON.parse(json.stdout)).toMatchObject({ usage: { promptTokens: 1434, completionTokens: 61 } });
  });

  it('nothing is shown when the provider reports none; a provider that refuses stream_options is not asked again', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({
        main: (r) =>
          r.body['stream_options'] !== undefined
            ? { status: 400, body: '{"error":{"message":"Unrecognized request argument supplied: stream_options"}}' }
            : { text: 'Plain answer.' },
      }),
    );
    const run = ok(await runCli(['ask', '--repo', repo, '--json', 'hello'], { env: env() }));
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: 'Plain answer.', usage: null });
    const text = ok(await runCli(['ask', '--repo', repo, 'hello'], { env: env() }));
    expect(text.stderr).not.toContain('tokens:');
    // Each process asks once, is refused, and asks again without it.
    expect(of('main').map((r) => r.body['stream_options'] !== undefined)).toEqual([true, false, true, false]);
  });
});

describe('README', () => {
  it('the Start step puts the command on PATH first and runs it in your own project, not in the checkout', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const start = readme.slice(readme.indexOf('## Start'), readme.indexOf('|', readme.indexOf('## Start')));
    const block = /```sh\n([\s\S]*?)```/.exec(start)![1]!;
    expect(block.indexOf('npm link')).toBeGreaterThanOrEqual(0);
    expect(block.indexOf('npm link')).toBeLessThan(block.indexOf('cd '));
    expect(block.indexOf('cd ')).toBeLessThan(block.search(/^autopatch-j/m));
    expect(block).not.toContain('node dist/cli/main.js');
  });
});
