import { describe, expect, it } from 'vitest';
import { MemoryManager, MemorySchemaError, ScriptedLlm } from '../../../src/index.js';
import { FAILED_AT, UNUSABLE_BACKOFF_MS } from '../../../src/memory/store/job-times.js';
import { startFixture } from '../../helpers/processes.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../../helpers/temp-repo.js';
import { openMemory } from '../../helpers/memory.js';

const MINUTE = 60_000;
const YEAR = 365 * 24 * 60 * MINUTE;

function admitTwo(memory: MemoryManager): void {
  for (const text of ['以后回答先给结论。', '以后代码注释用英文。'])
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: text }), 'ok');
}

const killed = async (fixture: ReturnType<typeof startFixture>): Promise<void> => {
  const closed = new Promise((resolve) => fixture.child.once('close', resolve));
  fixture.child.kill('SIGKILL');
  await closed;
};

describe('clock-safe leases (issue "Safe hands", item 5) — two processes, each with its own now', () => {
  it('a process whose clock runs 2 minutes ahead never takes a live turn of another process; once that process is gone it does', async () => {
    const repo = tempRepo();
    MemoryManager.open({ repoRoot: repo }).close();
    const owner = startFixture('skewed-process.mjs', [repo, '0', 'turn']);
    const handle = JSON.parse(await owner.nextLine()) as { turnId: string };
    const ahead = (): number => Date.now() + 2 * MINUTE;
    // The turn's 3-second lease looks two minutes old to this clock; its owner still runs.
    for (let look = 0; look < 3; look += 1) {
      const reader = openMemory({ repoRoot: repo, now: ahead, llm: new ScriptedLlm() });
      await reader.processDue({ force: true });
      expect(reader.status().turns).toMatchObject({ open: 1, interrupted: 0 });
      await reader.close();
    }
    owner.send('complete');
    expect(JSON.parse(await owner.nextLine())).toEqual({ state: 'completed' });

    // The same again, but the owner dies: the next start (clock ahead or not) recovers the turn.
    const doomed = startFixture('skewed-process.mjs', [repo, '0', 'turn']);
    const second = JSON.parse(await doomed.nextLine()) as { turnId: string };
    await killed(doomed);
    openMemory({ repoRoot: repo, now: ahead });
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT state FROM turns WHERE id = ?').get(second.turnId))).toEqual({
      state: 'interrupted',
    });
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT state FROM turns WHERE id = ?').get(handle.turnId))).toEqual({
      state: 'completed',
    });
  });

  it('a retry time set by a clock a year ahead is due now, so the thread’s later turns do not wait a year', async () => {
    const repo = tempRepo();
    MemoryManager.open({ repoRoot: repo }).close();
    const skewed = startFixture('skewed-process.mjs', [repo, String(YEAR), 'fail']);
    const { nextRetryAt } = JSON.parse(await skewed.nextLine()) as { nextRetryAt: number };
    expect(nextRetryAt).toBeGreaterThan(Date.now() + YEAR - MINUTE);
    const llm = new ScriptedLlm().always('memory_extraction', { content: '{"thread_compaction":"","candidates":[]}' });
    const memory = openMemory({ repoRoot: repo, llm });
    const done = await memory.processDue();
    expect(done.outcomes.map((o) => o.outcome)).toEqual(['succeeded_no_output']);
    expect(memory.status().jobs).toMatchObject({ retryWait: 0, succeededNoOutput: 2 });
  });

  it('a claim made with a clock an hour ahead by a process that died is taken back at the next start, not an hour later', async () => {
    const repo = tempRepo();
    MemoryManager.open({ repoRoot: repo }).close();
    const skewed = startFixture('skewed-process.mjs', [repo, String(60 * MINUTE), 'claim']);
    expect(await skewed.nextLine()).toBe('claimed');
    const owner = withRawDb(dbPathOf(repo), (db) =>
      db.prepare("SELECT DISTINCT lease_owner AS o FROM memory_jobs WHERE status = 'leased'").get(),
    ) as {
      o: string;
    };
    expect(owner.o).toMatch(new RegExp(`@.+:${skewed.child.pid}$`));
    await killed(skewed);
    const llm = new ScriptedLlm().always('memory_extraction', { content: '{"thread_compaction":"","candidates":[]}' });
    const memory = openMemory({ repoRoot: repo, llm });
    expect(memory.goneProcessLeases()).toEqual({ reclaimed: 2, stillLeased: 0, pids: [skewed.child.pid] });
    expect((await memory.processDue({ force: true })).outcomes.map((o) => o.outcome)).toEqual(['succeeded_no_output']);
  });

  it('a lease further ahead than any lease is given counts as over, even for an owner without a process id', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const hang = new ScriptedLlm().always('memory_extraction', () => new Promise(() => {}));
    const ahead = openMemory({ repoRoot: repo, llm: hang, now: () => clock.value + 60 * MINUTE, workerId: 'ahead' });
    admitTwo(ahead);
    void ahead.processDue({ force: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const llm = new ScriptedLlm().always('memory_extraction', { content: '{"thread_compaction":"","candidates":[]}' });
    const reader = openMemory({ repoRoot: repo, llm, now: clock.now, workerId: 'reader' });
    expect((await reader.processDue({ force: true })).outcomes.map((o) => o.outcome)).toEqual(['succeeded_no_output']);
  });
});

describe('unusable answers fail sooner (issue "Safe hands", item 7)', () => {
  it('six unusable answers in a row make a job failed within minutes (transport failures keep M-9.4: scheduling.test)', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const start = clock.value;
    const llm = new ScriptedLlm().always('memory_extraction', { content: 'I could not find anything worth remembering.' });
    const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
    admitTwo(memory);
    for (let round = 0; round < 40 && memory.status().jobs.failed < 2; round += 1) {
      await memory.processDue({ force: true });
      const next = withRawDb(dbPathOf(repo), (db) =>
        // The thread's first unfinished job decides when the thread goes on (turn order).
        db
          .prepare(
            "SELECT available_at AS at FROM memory_jobs WHERE status = 'retry_wait' AND available_at < ? ORDER BY turn_sequence LIMIT 1",
          )
          .get(FAILED_AT),
      ) as { at: number } | undefined;
      if (next) clock.value = Math.max(clock.value, next.at);
    }
    expect(memory.status().jobs.failed).toBe(2);
    // The batch of two is split (the halves due at once); a thread's jobs run in turn order, so the second job
    // waits for the first: 5 + 10 + 20 + 40 + 80 s each, about five minutes for both — not the hours of M-9.4.
    expect(clock.value - start).toBeLessThanOrEqual(2 * UNUSABLE_BACKOFF_MS.reduce((a, b) => a + b, 0));
    expect(llm.requestsFor('memory_extraction').length).toBeLessThanOrEqual(2 * 2 * 6);
  });
});

describe('safe integers (issue "Safe hands", item 6)', () => {
  it('a crafted database whose turn sequence is at 2^53 − 1 refuses the next turn instead of numbering it unsafely', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: 'first' }), 'ok');
    // A turn at the largest safe sequence, as a crafted or damaged file could hold one (the schema forbids updates).
    withRawDb(dbPathOf(repo), (db) =>
      db
        .prepare(
          `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
           SELECT 'turn-crafted', thread_id, 9007199254740991, intent, user_text, assistant_text, state, created_at, updated_at, finished_at
             FROM turns LIMIT 1`,
        )
        .run(),
    );
    expect(() => memory.beginTurn({ intent: 'general_chat', userText: 'next' })).toThrow(MemorySchemaError);
    expect(() => memory.beginTurn({ intent: 'general_chat', userText: 'next' })).toThrow(/largest safe integer/);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) AS n FROM turns').get())).toEqual({ n: 2 });
  });
});
