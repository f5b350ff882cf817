import { describe, expect, it } from 'vitest';
import { MemoryIntentError, MemoryLeaseError } from '../../src/index.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

interface TurnRow {
  id: string;
  state: string;
  user_text: string;
  assistant_text: string | null;
  lease_owner: string | null;
  failure: string | null;
}

function turnRow(repo: string, id: string): TurnRow {
  return withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT * FROM turns WHERE id = ?').get(id) as TurnRow);
}

function jobsOf(repo: string, turnId: string): { kind: string; status: string }[] {
  return withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT kind, status FROM memory_jobs WHERE turn_id = ?').all(turnId) as never);
}

describe('turns (M-3.2)', () => {
  it('beginTurn stores the RAW user text with an owner lease before any model call', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo, workerId: 'me' });
    const text = '  解释一下 `parse()`，then tell me why —  ✓ \n';
    const handle = memory.beginTurn({ intent: 'code_explain', userText: text, scopePaths: ['src/a.ts'] });
    expect(handle.sequence).toBe(1);
    expect(handle.threadId).toBe(memory.status().activeThreadId);
    const row = turnRow(repo, handle.turnId);
    expect(row.state).toBe('open');
    expect(row.user_text).toBe(text);
    expect(row.lease_owner).toBe('me');
    expect(jobsOf(repo, handle.turnId)).toEqual([]);
  });

  it('completeTurn stores the final text and exactly one extraction job; a second completion is fenced', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'hello' });
    const turn = memory.completeTurn(handle, 'hi there');
    expect(turn.state).toBe('completed');
    expect(turn.assistantText).toBe('hi there');
    expect(jobsOf(repo, handle.turnId)).toEqual([{ kind: 'extraction', status: 'pending' }]);
    expect(() => memory.completeTurn(handle, 'again')).toThrow(MemoryLeaseError);
    expect(() => memory.failTurn(handle, new Error('x'))).toThrow(MemoryLeaseError);
    expect(jobsOf(repo, handle.turnId)).toHaveLength(1);
  });

  it('failTurn keeps the user text, marks the turn failed and queues its job', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: '以后先给结论' });
    memory.failTurn(handle, new Error('provider down'));
    const row = turnRow(repo, handle.turnId);
    expect(row.state).toBe('failed');
    expect(row.user_text).toBe('以后先给结论');
    expect(row.assistant_text).toBeNull();
    expect(row.failure).toBe('Error: provider down');
    expect(jobsOf(repo, handle.turnId)).toEqual([{ kind: 'extraction', status: 'pending' }]);
  });

  it('RAW text is never cut: a 200,000-character turn is stored whole', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    const big = '长'.repeat(100_000) + 'x'.repeat(100_000);
    const handle = memory.beginTurn({ intent: 'general_chat', userText: big });
    memory.completeTurn(handle, big);
    const row = turnRow(repo, handle.turnId);
    expect(row.user_text).toBe(big);
    expect(row.assistant_text).toBe(big);
  });

  it('M-1.1: a repair intent is refused with MemoryIntentError and nothing is stored', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    for (const intent of ['code_audit', 'patch_explain', 'patch_revise']) {
      expect(() => memory.beginTurn({ intent: intent as 'general_chat', userText: 'audit this' })).toThrow(MemoryIntentError);
    }
    expect(memory.status().turns).toEqual({ open: 0, completed: 0, failed: 0, interrupted: 0 });
  });

  it('sequences grow per thread and restart from 1 after /new', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    const a = memory.beginTurn({ intent: 'general_chat', userText: 'a' });
    const b = memory.beginTurn({ intent: 'general_chat', userText: 'b' });
    expect([a.sequence, b.sequence]).toEqual([1, 2]);
    memory.completeTurn(a, 'A');
    memory.completeTurn(b, 'B');
    const result = await memory.newThread();
    expect(result.archivedThreadId).toBe(a.threadId);
    const c = memory.beginTurn({ intent: 'general_chat', userText: 'c' });
    expect(c.threadId).toBe(result.threadId);
    expect(c.sequence).toBe(1);
  });
});

describe('turn leases (M-9.1, M-10.1)', () => {
  it('a second manager recovers only expired open turns, as interrupted, exactly once', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const first = openMemory({ repoRoot: repo, now: clock.now, workerId: 'first', turnLeaseMs: 60_000 });
    const stale = first.beginTurn({ intent: 'general_chat', userText: 'will be interrupted' });
    clock.advance(30_000);
    const live = first.beginTurn({ intent: 'general_chat', userText: 'still alive' });
    clock.advance(31_000); // stale expired, live not
    const second = openMemory({ repoRoot: repo, now: clock.now, workerId: 'second' });
    expect(turnRow(repo, stale.turnId).state).toBe('interrupted');
    expect(turnRow(repo, live.turnId).state).toBe('open');
    expect(jobsOf(repo, stale.turnId)).toHaveLength(1);
    expect(() => first.completeTurn(stale, 'too late')).toThrow(/already interrupted/);
    expect(first.completeTurn(live, 'in time').state).toBe('completed');
    await second.close();
    const third = openMemory({ repoRoot: repo, now: clock.now, workerId: 'third' });
    expect(jobsOf(repo, stale.turnId)).toHaveLength(1);
    expect(third.status().turns).toEqual({ open: 0, completed: 1, failed: 0, interrupted: 1 });
    await third.close();
  });

  it('a heartbeat keeps an open turn alive past its first lease', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const owner = openMemory({ repoRoot: repo, now: clock.now, workerId: 'owner', turnLeaseMs: 60_000 });
    const handle = owner.beginTurn({ intent: 'general_chat', userText: 'long request' });
    clock.advance(50_000);
    expect(owner.heartbeat()).toBe(1);
    clock.advance(50_000); // 100 s after begin, 50 s after the heartbeat
    const other = openMemory({ repoRoot: repo, now: clock.now, workerId: 'other' });
    expect(turnRow(repo, handle.turnId).state).toBe('open');
    expect(owner.completeTurn(handle, 'done').state).toBe('completed');
    await other.close();
  });
});
