import { describe, expect, it } from 'vitest';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { ManualClock, tempRepo } from '../helpers/temp-repo.js';

/** M-9.4a / §11: failed jobs are visible in `memory status` and put back by `memory retry [ID|--all]`. */

async function repoWithFailedJob(): Promise<{ repo: string; jobId: string }> {
  const repo = tempRepo();
  const clock = new ManualClock(Date.now());
  const llm = new ScriptedLlm().always('memory_extraction', { content: '{"thread_compaction": "cut off', finishReason: 'length' });
  const memory = MemoryManager.open({ repoRoot: repo, llm, now: clock.now });
  const h = memory.beginTurn({ intent: 'general_chat', userText: '以后默认用中文回答。' });
  memory.completeTurn(h, '好的。');
  for (let i = 0; i < 10 && memory.status().jobs.failed === 0; i += 1) {
    await memory.processDue({ force: true });
    clock.advance(3_600_000);
  }
  const jobId = memory.status().unresolved.failed[0]!.id;
  await memory.close();
  return { repo, jobId };
}

describe('memory retry (CLI)', () => {
  it('status names the failed job and why; retry without an id lists them; retry ID and --all put them back', async () => {
    const { repo, jobId } = await repoWithFailedJob();
    const status = await runCli(['memory', 'status', '--repo', repo]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/1 failed/);
    expect(status.stdout).toContain(`failed job     ${jobId}`);
    expect(status.stdout).toMatch(/cut off/);
    expect(status.stdout).toContain(`memory retry ${jobId}`);

    // Without an argument: the failed jobs and how to retry them from the shell, exit 0.
    const listed = await runCli(['memory', 'retry', '--repo', repo]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('1 failed job(s):');
    expect(listed.stdout).toContain(jobId);
    expect(listed.stdout).toContain('autopatch-j memory retry <job-id> puts one back in the queue, --all every one.');
    expect(listed.stdout).not.toContain('/memory');
    const json = await runCli(['memory', 'retry', '--repo', repo, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ failed: [{ id: jobId }] });

    const unknown = await runCli(['memory', 'retry', 'job-nope', '--repo', repo]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr + unknown.stdout).toMatch(/No failed job matches 'job-nope'/);

    const retried = await runCli(['memory', 'retry', jobId.slice(0, 10), '--repo', repo, '--json']);
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toEqual({ jobIds: [jobId] });
    const after = JSON.parse((await runCli(['memory', 'status', '--repo', repo, '--json'])).stdout) as {
      jobs: { failed: number; retryWait: number };
    };
    expect(after.jobs).toMatchObject({ failed: 0, retryWait: 1 });

    const none = await runCli(['memory', 'retry', '--all', '--repo', repo]);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/No failed jobs/);
  });
});
