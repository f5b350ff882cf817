import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { collect } from '../helpers/child.js';
import { CLI_PATH, byRole, roleOf, runCli } from '../helpers/cli.js';
import { fakeServerEachTest } from '../helpers/fake-openai.js';
import { drive, plain } from '../helpers/pty.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-test', AUTOPATCH_LLM_MODEL: 'fake-model' });
const empty = { text: '{"thread_compaction":"","candidates":[]}' };

/** A project with `n` queued extraction jobs in an older, archived thread (an earlier session's backlog). */
async function backlog(n: number, createdAt: number): Promise<string> {
  const repo = tempRepo();
  await MemoryManager.open({ repoRoot: repo }).close();
  withRawDb(dbPathOf(repo), (db) => {
    db.prepare("INSERT INTO threads (id, status, created_at, updated_at, archived_at) VALUES ('t-old', 'archived', ?, ?, ?)").run(
      createdAt,
      createdAt,
      createdAt,
    );
    const turn = db.prepare(
      `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
       VALUES (?, 't-old', ?, 'general_chat', ?, 'ok', 'completed', ?, ?, ?)`,
    );
    const job = db.prepare(
      `INSERT INTO memory_jobs (id, kind, status, thread_id, turn_id, turn_sequence, generation, available_at, created_at, updated_at)
       VALUES (?, 'extraction', 'pending', 't-old', ?, ?, 1, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let k = 1; k <= n; k += 1) {
        turn.run(`turn-old-${k}`, k, `old question ${k}`, createdAt, createdAt, createdAt);
        job.run(`job-old-${String(k).padStart(5, '0')}`, `turn-old-${k}`, k, createdAt, createdAt, createdAt);
      }
    })();
  });
  return repo;
}

describe('a bounded exit pass (issue "Safe hands", item 4)', () => {
  it('ask with 2,000 queued jobs and a 300 ms model: its own turn’s job first, then 10 s, then it ends and says who takes the rest', async () => {
    const repo = await backlog(2000, Date.now() - 3_600_000);
    fake.server.always(byRole({ extraction: () => ({ ...empty, delayMs: 300 }) }));
    const run = await runCli(['ask', '--repo', repo, 'hello'], { env: fake.env(), timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    // Before: about 150 s after the answer. Now: the 10 s budget, the call in flight, start-up.
    expect(run.ms).toBeLessThan(30_000);
    const line = run.stderr.trim().split('\n').at(-1)!;
    expect(line).toMatch(
      /^memory: \d+ jobs? processed · \d{3,4} still queued \(the exit pass stops after 10 s; a running session or the next start takes them\) — autopatch-j memory status explains$/,
    );
    const own = withRawDb(dbPathOf(repo), (db) =>
      db.prepare("SELECT j.status FROM memory_jobs j JOIN turns t ON t.id = j.turn_id WHERE t.thread_id <> 't-old'").get(),
    );
    expect(own).toEqual({ status: 'succeeded_no_output' });
    // The line's count is what is still queued (the background worker may have taken a batch before the pass).
    const queued = Number(/· (\d+) still queued/.exec(line)![1]);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM memory_jobs WHERE finished_at IS NULL').get())).toEqual({
      n: queued,
    });
    expect(fake.server.requests.filter((r) => roleOf(r) === 'extraction').length).toBeLessThan(60);
  }, 150_000);

  it('ask against a hanging provider ends right after its error: the background job in flight is not waited on', async () => {
    // One old job becomes due (30 s rule) while the main call hangs; its extraction would run past the main timeout.
    const repo = await backlog(1, Date.now() - 26_000);
    fake.server.always(byRole({ main: () => ({ hang: true }), extraction: () => ({ hang: true }) }));
    const run = await runCli(['ask', '--repo', repo, 'hello'], { env: fake.env({ AUTOPATCH_LLM_TIMEOUT_MS: '8000' }), timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(fake.server.requests.some((r) => roleOf(r) === 'extraction')).toBe(true);
    expect(run.stderr).toContain('did not answer in time');
    // The main call times out at 8 s; the extraction started at about 4 s would have held it to about 12 s.
    expect(run.ms).toBeLessThan(11_000);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'memory: 2 still queued (the provider timed out earlier, not waiting again; a running session or the next start takes them) — ' +
        'autopatch-j memory status explains',
    );
  }, 60_000);

  it('after a kill -9 in the exit pass, the next run’s exit-pass line names the jobs the dead process held', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ extraction: () => ({ hang: true }) }));
    const child = spawn(process.execPath, [CLI_PATH, 'ask', '--repo', repo, 'hello'], {
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...fake.env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = collect(child, 60_000);
    for (let i = 0; i < 300 && !fake.server.requests.some((r) => roleOf(r) === 'extraction'); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await done;
    fake.server.always(byRole({ extraction: () => empty }));
    const next = await runCli(['ask', '--repo', repo, 'again'], { env: fake.env() });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^memory: 2 jobs processed · 1 taken back from a process that had ended \\(pid ${child.pid}\\)$`),
    );
  }, 90_000);
});

describe('/exit with a Memory job in flight (issue "The command line, second pass")', () => {
  it('says at once what it waits for and that Ctrl-C skips it; Ctrl-C ends it within a second and the job stays queued', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ extraction: () => ({ hang: true }) }));
    const result = await drive(
      [
        { wait: 'autopatch-j>' },
        { send: 'first question\r' },
        { wait: 'ok' },
        { send: 'second question\r' },
        { wait: 'ok' },
        { sleep: 1.5 },
        { send: '/exit\r' },
        { wait: 'Ctrl-C skips', timeout: 2 },
        { sleep: 0.3 },
        { send: '\u0003' },
        { wait: 'still queued', timeout: 1 },
      ],
      ['--repo', repo],
      fake.env({ AUTOPATCH_LLM_TIMEOUT_MS: '30000' }),
    );
    const text = plain(result.transcript);
    expect(result.ok, text).toBe(true);
    expect(fake.server.requests.filter((r) => roleOf(r) === 'extraction')).toHaveLength(1);
    expect(text).toMatch(/waiting for the memory extraction job in flight \(at most 30 s\)… \(Ctrl-C skips\)/);
    expect(text).toMatch(/memory: 2 still queued \(skipped with Ctrl-C; a running session or the next start takes them\)/);
    withRawDb(dbPathOf(repo), (db) =>
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE status IN ('pending', 'retry_wait')").get()).toEqual({ n: 2 }),
    );
  }, 60_000);
});
