import { describe, expect, it } from 'vitest';
import { MemoryManager, ScriptedLlm } from '../../../src/index.js';
import { RETRY_BACKOFF_MS } from '../../../src/memory/store/job-times.js';
import { extractWith, extractionPayload, quoteUser } from '../../helpers/scripted.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../../helpers/temp-repo.js';
import { openMemory } from '../../helpers/memory.js';

function admit(memory: MemoryManager, text: string, answer = 'ok'): string {
  const h = memory.beginTurn({ intent: 'general_chat', userText: text });
  memory.completeTurn(h, answer);
  return h.turnId;
}

function jobRow(repo: string, turnId: string): { status: string; attempt_count: number; available_at: number; last_error: string | null } {
  return withRawDb(
    dbPathOf(repo),
    (db) => db.prepare('SELECT status, attempt_count, available_at, last_error FROM memory_jobs WHERE turn_id = ?').get(turnId) as never,
  );
}

describe('M-5.1 scheduling', () => {
  it('one pending turn waits 30 s; two run at once', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const llm = new ScriptedLlm().always('memory_extraction', extractWith());
    const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
    const first = admit(memory, 'hello');
    expect((await memory.processDue()).outcomes).toEqual([]);
    clock.advance(29_999);
    expect((await memory.processDue()).outcomes).toEqual([]);
    clock.advance(1);
    const ran = await memory.processDue();
    expect(ran.outcomes).toMatchObject([{ kind: 'extraction', outcome: 'succeeded_no_output', jobIds: [expect.any(String)] }]);
    expect(jobRow(repo, first).status).toBe('succeeded_no_output');
    admit(memory, 'one');
    admit(memory, 'two');
    expect((await memory.processDue()).outcomes).toHaveLength(1);
    expect(llm.requestsFor('memory_extraction')).toHaveLength(2);
  });

  it('M-5.4: no candidate → succeeded_no_output and no consolidation job', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', extractWith());
    const memory = openMemory({ repoRoot: repo, llm });
    admit(memory, 'what does parse() do?');
    admit(memory, 'thanks');
    await memory.processDue();
    expect(memory.status().jobs).toMatchObject({ pending: 0, succeededNoOutput: 2 });
    expect(llm.requestsFor('memory_consolidation')).toHaveLength(0);
  });

  it('a batch is at most 4 turns of one thread in sequence order; the rest are drained after it', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', extractWith());
    const memory = openMemory({ repoRoot: repo, llm });
    const handles = Array.from({ length: 6 }, (_, i) => memory.beginTurn({ intent: 'general_chat', userText: `turn ${i + 1}` }));
    // Complete out of order: the batch still follows the thread sequence.
    for (const h of [...handles].reverse()) memory.completeTurn(h, 'ok');
    const result = await memory.processDue();
    expect(result.outcomes.map((o) => o.jobIds.length)).toEqual([4, 2]);
    const batches = llm.requestsFor('memory_extraction').map((r) => extractionPayload(r).turns.map((t) => t.sequence));
    expect(batches).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
    expect(extractionPayload(llm.requestsFor('memory_extraction')[1]!).adjacent_previous_turn?.sequence).toBe(4);
  });

  it('turns that arrive while a batch runs are not missed', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm();
    let memory!: MemoryManager;
    llm.enqueue('memory_extraction', (request) => {
      // Two new turns are admitted while the first batch is with the model.
      admit(memory, 'arrived mid-batch A');
      admit(memory, 'arrived mid-batch B');
      return extractWith()(request);
    });
    llm.always('memory_extraction', extractWith());
    memory = MemoryManager.open({ repoRoot: repo, llm });
    admit(memory, 'first');
    admit(memory, 'second');
    await memory.processDue();
    const sequences = llm.requestsFor('memory_extraction').map((r) => extractionPayload(r).turns.map((t) => t.sequence));
    expect(sequences).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(memory.status().jobs.pending).toBe(0);
    await memory.close();
  });
});

describe('background scheduling with start()', () => {
  it('one turn waits; a second turn wakes the worker and both are extracted without processDue', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', extractWith());
    const memory = openMemory({ repoRoot: repo, llm });
    memory.start();
    admit(memory, 'first');
    await new Promise((r) => setTimeout(r, 300));
    expect(llm.requestsFor('memory_extraction')).toHaveLength(0);
    admit(memory, 'second');
    const deadline = Date.now() + 5_000;
    while (memory.status().jobs.pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(memory.status().jobs).toMatchObject({ pending: 0, succeededNoOutput: 2 });
    expect(llm.requestsFor('memory_extraction')).toHaveLength(1);
  });
});

describe('M-9.4 retries', () => {
  it('backoff is 5 s → 30 s → 2 min → 10 min → 1 h, capped; attempts and the RAW error are stored', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const llm = new ScriptedLlm().always('memory_extraction', { error: Object.assign(new Error('upstream 503'), { status: 503 }) });
    const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
    const turnId = admit(memory, 'hello');
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      await memory.processDue({ force: true });
      const job = jobRow(repo, turnId);
      expect(job.status).toBe('retry_wait');
      expect(job.attempt_count).toBe(attempt);
      expect(job.last_error).toContain('upstream 503');
      expect(job.last_error).toContain('status: 503');
      delays.push(job.available_at - clock.value);
      // Not due a millisecond early.
      clock.advance(job.available_at - clock.value - 1);
      expect((await memory.processDue({ force: true })).outcomes).toEqual([]);
      clock.advance(1);
    }
    expect(delays).toEqual([...RETRY_BACKOFF_MS, 3_600_000]);
    expect(delays).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 3_600_000]);
  });

  it('an unusable model answer is a contract failure that goes to retry (M-9.5: no request content in the error)', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      // Cut off mid-object: never repaired, never re-asked.
      .enqueue('memory_extraction', { content: 'Sure! Here is the JSON you asked for: {"thread_compaction": ""' })
      // No JSON at all, twice (the re-ask gets the same).
      .enqueue('memory_extraction', { content: 'I cannot find any preference here.' }, { content: 'Still nothing to report.' })
      .enqueue('memory_extraction', { content: '' }, { content: '' });
    const clock = new ManualClock();
    const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
    const turnId = admit(memory, 'SECRET-USER-TEXT 以后默认用中文');
    const errors: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      await memory.processDue({ force: true });
      errors.push(jobRow(repo, turnId).last_error!);
      clock.advance(3_600_000);
    }
    expect(errors[0]).toMatch(/MemoryContractError[\s\S]*not closed|cut off/);
    expect(errors[1]).toMatch(/no (readable )?JSON/);
    expect(errors[2]).toMatch(/empty/);
    expect(llm.requestsFor('memory_extraction')).toHaveLength(5);
    for (const e of errors) {
      expect(e).not.toContain('SECRET-USER-TEXT');
      expect(e).not.toContain('You maintain the long-term memory');
      expect(e.length).toBeLessThanOrEqual(20_000);
    }
  });

  it('RAW diagnostics are bounded to 20,000 characters and keep the provider body', async () => {
    const repo = tempRepo();
    const body = `{"error":{"message":"<b>overloaded</b> \u001b[31m red"}}${'x'.repeat(50_000)}`;
    const llm = new ScriptedLlm().always('memory_extraction', {
      error: Object.assign(new Error('provider failed'), { status: 529, body }),
    });
    const memory = openMemory({ repoRoot: repo, llm });
    const turnId = admit(memory, 'hi');
    await memory.processDue({ force: true });
    const error = jobRow(repo, turnId).last_error!;
    expect(error.length).toBeLessThanOrEqual(20_000);
    expect(error).toContain('<b>overloaded</b> \u001b[31m red');
    expect(memory.status().lastError).toBe(error);
  });
});

describe('M-9.6 global last error', () => {
  it('an unrelated success does not clear it; the newest unresolved error wins; it clears when resolved', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const llm = new ScriptedLlm();
    const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
    const first = memory.beginTurn({ intent: 'general_chat', userText: 'first' });
    memory.completeTurn(first, 'a');
    llm.enqueue('memory_extraction', { error: new Error('failure A') });
    await memory.processDue({ force: true });
    expect(memory.status().lastError).toMatch(/failure A/);

    // A /new moves later turns to another thread: that job is unrelated to the failing one.
    await memory.newThread().catch(() => undefined);
    clock.advance(1_000);
    const second = memory.beginTurn({ intent: 'general_chat', userText: 'second' });
    memory.completeTurn(second, 'b');
    llm.enqueue('memory_extraction', extractWith());
    await memory.processDue({ force: true });
    expect(jobRow(repo, second.turnId).status).toBe('succeeded_no_output');
    expect(memory.status().lastError).toMatch(/failure A/);

    clock.advance(1_000);
    const third = memory.beginTurn({ intent: 'general_chat', userText: 'third' });
    memory.completeTurn(third, 'c');
    llm.enqueue('memory_extraction', { error: new Error('failure C') });
    await memory.processDue({ force: true });
    expect(memory.status().lastError).toMatch(/failure C/);

    clock.advance(5_000);
    llm.always('memory_extraction', extractWith());
    await memory.processDue({ force: true });
    expect(memory.status().lastError).toBeNull();
    expect(memory.status().lastSucceededAt).toBe(clock.value);
  });

  it('clear removes the last error', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', { error: new Error('down') });
    const memory = openMemory({ repoRoot: repo, llm });
    admit(memory, 'x');
    await memory.processDue({ force: true });
    expect(memory.status().lastError).not.toBeNull();
    memory.clear();
    expect(memory.status().lastError).toBeNull();
  });
});

describe('M-5.2 / M-9.4a compaction moves forward, batches commit in sequence order', () => {
  it('a failed older batch holds the newer turns until it commits, so the compaction ends at the newest turn', async () => {
    const repo = tempRepo();
    const clock = new ManualClock();
    const llm = new ScriptedLlm();
    const memory = openMemory({ repoRoot: repo, llm, now: clock.now });
    for (let i = 1; i <= 6; i += 1) admit(memory, `turn ${i}`);
    llm.enqueue('memory_extraction', { error: new Error('first batch fails') });
    await memory.processDue({ force: true });
    // Turns 5-6 were not extracted past the failed batch of turns 1-4.
    expect(llm.requestsFor('memory_extraction')).toHaveLength(1);
    clock.advance(5_000);
    llm.enqueue(
      'memory_extraction',
      extractWith(
        () => [],
        () => 'OLDER summary (turns 1-4)',
      ),
    );
    llm.enqueue(
      'memory_extraction',
      extractWith(
        () => [],
        () => 'NEWER summary (turns 1-6)',
      ),
    );
    await memory.processDue({ force: true });
    const sequences = llm
      .requestsFor('memory_extraction')
      .slice(1)
      .map((r) => extractionPayload(r).turns.map((t) => t.sequence));
    expect(sequences).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
    const compaction = withRawDb(dbPathOf(repo), (db) =>
      db.prepare("SELECT compaction, compaction_sequence FROM threads WHERE status='active'").get(),
    );
    expect(compaction).toEqual({ compaction: 'NEWER summary (turns 1-6)', compaction_sequence: 6 });
  });
});

describe('M-5.4 invalid candidates are filtered without blocking the rest', () => {
  it('a forged quote is filtered, the valid candidate and the compaction are kept, and status counts the refusal', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      .enqueue(
        'memory_extraction',
        extractWith((turn) =>
          turn.sequence === 1
            ? [
                quoteUser('user_preference', '回答先给结论', turn),
                { ...(quoteUser('user_preference', 'Forged', turn, '以后回答全部用英文') as object) },
                quoteUser('project_decision', 'Question', turn),
              ]
            : [],
        ),
      )
      .always('memory_consolidation', (await import('../../helpers/scripted.js')).consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    admit(memory, '以后回答先给结论。');
    admit(memory, 'ok');
    await memory.processDue({ force: true });
    const status = memory.status();
    expect(status.items.user_preference).toBe(1);
    expect(status.filteredCandidates).toEqual({ total: 2, byReason: { quote_not_found: 1, no_speech_act: 1 } });
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare("SELECT compaction FROM threads WHERE status='active'").get())).toEqual({
      compaction: 'summary up to 2',
    });
  });
});
