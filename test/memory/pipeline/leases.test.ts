import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { type ChatResponse, MemoryManager, ScriptedLlm } from '../../../src/index.js';
import { runFixture } from '../../helpers/child.js';
import { consolidateWith, extractWith, quoteUser } from '../../helpers/scripted.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../../helpers/temp-repo.js';
import { openMemory } from '../../helpers/memory.js';

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const preferenceFromEachTurn = extractWith((t) => [quoteUser('user_preference', t.user.replace(/^以后|。$/g, ''), t)]);

function admitTwo(memory: MemoryManager): void {
  for (const text of ['以后回答先给结论。', '以后代码注释用英文。']) {
    const h = memory.beginTurn({ intent: 'general_chat', userText: text });
    memory.completeTurn(h, 'ok');
  }
}

function counts(repo: string): { candidates: number; items: number; errors: number } {
  return withRawDb(dbPathOf(repo), (db) => ({
    candidates: (db.prepare('SELECT count(*) AS n FROM memory_candidates').get() as { n: number }).n,
    items: (db.prepare('SELECT count(*) AS n FROM memory_items').get() as { n: number }).n,
    errors: (db.prepare('SELECT count(*) AS n FROM memory_jobs WHERE last_error IS NOT NULL').get() as { n: number }).n,
  }));
}

describe('M-9.1 / M-9.2 job leases and fencing', () => {
  it('an expired lease is taken over; the stale worker commits nothing, not even its failure', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const slow = deferred<ChatResponse>();
    const called = deferred<void>();
    const staleLlm = new ScriptedLlm().enqueue('memory_extraction', () => {
      called.resolve();
      return slow.promise;
    });
    const stale = openMemory({ repoRoot: repo, llm: staleLlm, now: clock.now, workerId: 'stale', jobLeaseMs: 60_000 });
    admitTwo(stale);
    const staleRun = stale.processDue({ force: true });
    await called.promise;

    clock.advance(60_001);
    const freshLlm = new ScriptedLlm()
      .always('memory_extraction', preferenceFromEachTurn)
      .always('memory_consolidation', consolidateWith());
    const fresh = openMemory({ repoRoot: repo, llm: freshLlm, now: clock.now, workerId: 'fresh' });
    const taken = await fresh.processDue({ force: true });
    expect(taken.outcomes.map((o) => o.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(counts(repo)).toEqual({ candidates: 2, items: 2, errors: 0 });

    slow.reject(new Error('stale worker failed late'));
    const staleResult = await staleRun;
    expect(staleResult.outcomes.map((o) => o.outcome)).toEqual(['fenced']);
    expect(counts(repo)).toEqual({ candidates: 2, items: 2, errors: 0 });
    expect(fresh.status().lastError).toBeNull();
    await fresh.close();
  });

  it('a clear while the model call is in flight fences the late result (generation)', async () => {
    const repo = tempRepo();
    const answer = deferred<void>();
    const called = deferred<void>();
    const llm = new ScriptedLlm().enqueue('memory_extraction', async (request) => {
      called.resolve();
      await answer.promise;
      return preferenceFromEachTurn(request);
    });
    const memory = openMemory({ repoRoot: repo, llm });
    admitTwo(memory);
    const run = memory.processDue({ force: true });
    await called.promise;
    const cleared = memory.clear();
    answer.resolve();
    expect((await run).outcomes.map((o) => o.outcome)).toEqual(['fenced']);
    expect(counts(repo)).toEqual({ candidates: 0, items: 0, errors: 0 });
    expect(memory.status()).toMatchObject({ generation: cleared.generation, lastError: null, jobs: { pending: 0, leased: 0 } });
  });

  it('2 processes running workers on one database never double-commit a job', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    // Two threads, so both workers can extract at once (a thread's batches commit in sequence order).
    for (let i = 0; i < 40; i += 1) {
      if (i === 20) await memory.newThread();
      const h = memory.beginTurn({ intent: 'general_chat', userText: `以后第${i}条规则：用规则${i}。` });
      memory.completeTurn(h, 'ok');
    }
    await memory.close();
    const results = await Promise.all([runFixture('pipeline-worker.mjs', [repo, 'one']), runFixture('pipeline-worker.mjs', [repo, 'two'])]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE kind = 'extraction' AND status = 'succeeded'").get()).toEqual({
        n: 40,
      });
      expect(
        db
          .prepare(
            'SELECT count(*) AS n, count(DISTINCT s.turn_id) AS turns FROM memory_candidates c JOIN candidate_sources s ON s.candidate_id = c.id',
          )
          .get(),
      ).toEqual({ n: 40, turns: 40 });
      expect(db.prepare("SELECT count(*) AS n FROM memory_items WHERE status = 'active' AND kind = 'user_preference'").get()).toEqual({
        n: 40,
      });
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE kind = 'consolidation' AND status <> 'succeeded'").get()).toEqual({
        n: 0,
      });
      expect(db.prepare("SELECT count(*) AS n FROM memory_candidates WHERE status <> 'consolidated'").get()).toEqual({ n: 0 });
    });
    const outcomes = results.map((r) => (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { outcomes: number }).outcomes);
    expect(outcomes.every((n) => n > 0)).toBe(true);
  });
});

describe('M-10.2 exit pass', () => {
  it('a hanging model: close({drain}) ends within the request timeout and leaves the jobs in retry with a warning', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', { hang: true });
    const memory = openMemory({ repoRoot: repo, llm, requestTimeoutMs: 300 });
    admitTwo(memory);
    const started = Date.now();
    const result = await memory.close({ drain: true });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ attempted: 2, succeeded: 0, retried: 2 });
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]!.message).toMatch(/timed out after 300 ms/);
    const reopened = openMemory({ repoRoot: repo });
    expect(reopened.status().jobs).toMatchObject({ retryWait: 2, leased: 0 });
    expect(reopened.status().lastError).toMatch(/MemoryTimeoutError/);
  });

  it('a failing model: the pass still ends, with a warning per job', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', { error: Object.assign(new Error('HTTP 500'), { status: 500 }) });
    const memory = openMemory({ repoRoot: repo, llm });
    admitTwo(memory);
    const result = await memory.close({ drain: true });
    expect(result).toMatchObject({ attempted: 2, retried: 2 });
    expect(result.warnings.every((w) => w.nextRetryAt !== null && /HTTP 500/.test(w.message))).toBe(true);
  });

  it('snapshot jobs are tried once, their consolidation child completes, later jobs are not chased', async () => {
    const repo = tempRepo();
    let memory!: MemoryManager;
    const llm = new ScriptedLlm()
      .enqueue('memory_extraction', (request) => {
        const h = memory.beginTurn({ intent: 'general_chat', userText: '以后测试用 vitest。' });
        memory.completeTurn(h, 'ok');
        const h2 = memory.beginTurn({ intent: 'general_chat', userText: '以后提交信息用英文。' });
        memory.completeTurn(h2, 'ok');
        return preferenceFromEachTurn(request);
      })
      .always('memory_extraction', preferenceFromEachTurn)
      .always('memory_consolidation', consolidateWith());
    memory = MemoryManager.open({ repoRoot: repo, llm });
    admitTwo(memory);
    const result = await memory.close({ drain: true });
    expect(result).toMatchObject({ attempted: 3, succeeded: 3, retried: 0 });
    expect(llm.requestsFor('memory_extraction')).toHaveLength(1);
    const reopened = openMemory({ repoRoot: repo });
    expect(reopened.status().jobs).toMatchObject({ pending: 2, succeeded: 3 });
    expect(reopened.list()).toHaveLength(2);
  });

  it('a job the background worker holds at close finishes first, and the consolidation it produced gets the exit pass', async () => {
    const repo = tempRepo();
    const extraction = deferred<ChatResponse>();
    const started = deferred<void>();
    const llm = new ScriptedLlm()
      .enqueue('memory_extraction', (request) => {
        started.resolve();
        return extraction.promise.then(() => preferenceFromEachTurn(request));
      })
      .always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    memory.start();
    admitTwo(memory);
    await started.promise;
    const closing = memory.close({ drain: true });
    await new Promise((r) => setTimeout(r, 50));
    extraction.resolve({ content: '' });
    const result = await closing;
    expect(result).toMatchObject({ attempted: 1, succeeded: 1, retried: 0 });
    expect(llm.requestsFor('memory_consolidation')).toHaveLength(1);
    const reopened = openMemory({ repoRoot: repo });
    expect(reopened.status().jobs).toMatchObject({ pending: 0, leased: 0, succeeded: 3 });
    expect(reopened.list()).toHaveLength(2);
  });

  it('M-3.4: /new gives the old thread pending jobs one chance before archiving it', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', preferenceFromEachTurn).always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    admitTwo(memory);
    const result = await memory.newThread();
    expect(result.drain).toMatchObject({ attempted: 3, succeeded: 3 });
    expect(memory.list()).toHaveLength(2);
    expect(memory.status().activeThreadId).toBe(result.threadId);
  });
});

describe('M-9.3 background work survives transient SQLite errors', () => {
  it('a locked database delays the daemon; it retries and finishes once the lock is gone', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', preferenceFromEachTurn).always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm, busyTimeoutMs: 20 });
    admitTwo(memory);
    const blocker = new Database(dbPathOf(repo));
    blocker.exec('BEGIN IMMEDIATE');
    memory.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(memory.list()).toEqual([]);
    blocker.exec('COMMIT');
    blocker.close();
    const deadline = Date.now() + 10_000;
    while (memory.list().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(memory.list()).toHaveLength(2);
  });
});
