import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { byRole, roleOf, runCli } from '../helpers/cli.js';
import { fakeServerEachTest } from '../helpers/fake-openai.js';
import { drive, plain } from '../helpers/pty.js';
import { tempRepo } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest();

/** A project with a root AGENTS.md, a nested one in api/, and a CLAUDE.md linking out of the project. */
function project(): string {
  const repo = tempRepo();
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'api'));
  writeFileSync(join(repo, 'AGENTS.md'), 'ROOT-RULE: small commits.\n');
  writeFileSync(join(repo, 'api', 'AGENTS.md'), 'API-RULE: JSON only.\n');
  const outside = tempRepo();
  writeFileSync(join(outside, 'x.md'), 'OUTSIDE\n');
  symlinkSync(join(outside, 'x.md'), join(repo, 'CLAUDE.md'));
  return repo;
}

describe('the command line names the instruction files it reads', () => {
  it('ask from a subfolder sends the root and the nested AGENTS.md, never the link out', async () => {
    const repo = project();
    fake.server.always(byRole({ main: () => ({ text: 'answer' }) }));
    const run = await runCli(['ask', 'hello'], { env: fake.env(), cwd: join(repo, 'api') });
    expect(run.code, run.stderr).toBe(0);
    const main = fake.server.requests.filter((r) => roleOf(r) === 'main');
    const system = String(main[0]!.body.messages![0]!.content);
    expect(system).toContain('----- AGENTS.md -----\nROOT-RULE: small commits.');
    expect(system).toContain('----- api/AGENTS.md -----\nAPI-RULE: JSON only.');
    expect(system).not.toContain('OUTSIDE');
  });

  it('doctor lists the files read and the ones skipped', async () => {
    const repo = project();
    fake.server.always({ text: 'ok' });
    const run = await runCli(['doctor', '--json'], { env: fake.env(), cwd: join(repo, 'api') });
    const report = JSON.parse(run.stdout) as { checks: { name: string; ok: boolean; detail: string }[] };
    expect(report.checks.find((c) => c.name === 'instructions')).toEqual({
      name: 'instructions',
      ok: true,
      detail: 'AGENTS.md, api/AGENTS.md; skipped CLAUDE.md: a link that leads outside the project (not followed)',
      fix: null,
    });
    const none = JSON.parse((await runCli(['doctor', '--json', '--repo', tempRepo()], { env: fake.env() })).stdout) as typeof report;
    expect(none.checks.find((c) => c.name === 'instructions')?.detail).toBe(
      'none (AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md are read when present)',
    );
  });

  it('the session banner names the files it will send', async () => {
    const repo = project();
    const result = await drive([{ wait: 'autopatch-j> ' }, { send: '\u0004' }], ['--repo', repo], {
      AUTOPATCH_LLM_BASE_URL: fake.server.url,
      AUTOPATCH_LLM_API_KEY: 'k',
    });
    expect(result.failed_wait, result.transcript).toBeNull();
    const text = plain(result.transcript);
    expect(text).toContain('project instructions: AGENTS.md\n');
    expect(text).toContain('skipped CLAUDE.md: a link that leads outside the project (not followed)');
  });
});
