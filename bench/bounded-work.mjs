// Bounded work (issue "Safe hands", items 3 and 4): quote location and validation over long turns, the event
// loop while a batch is validated, and how fast the background worker drains a large backlog.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryManager, ScriptedLlm } from '../dist/index.js';
import { Connection } from '../dist/memory/db/connection.js';
import { locateQuote } from '../dist/memory/pipeline/quote-location.js';
import { validateCandidate } from '../dist/memory/pipeline/validation.js';
import { screenOffLoop } from '../dist/memory/pipeline/screening.js';
import { freshRepo } from './seed.mjs';
import { percentile } from './stats.mjs';

const SIZES = [10_000, 100_000, 1_000_000];

function blankLinesTurn(n) {
  const userText = `${'\n'.repeat(n)}以后回答先给结论，然后再解释原因。`;
  return { id: 'turn-1', threadId: 't-1', sequence: 1, state: 'completed', userText, assistantText: 'ok' };
}

function candidate(title) {
  // "以后回答先给结论." differs from the RAW "以后回答先给结论，" in form only: located through the folded path.
  return {
    kind: 'user_preference',
    title,
    content: title,
    aliases: [],
    sources: [{ turn_id: 'turn-1', role: 'user', quote: '以后回答先给结论.' }],
  };
}

function timed(repeats, fn) {
  const times = [];
  for (let i = 0; i < repeats + 1; i += 1) {
    const start = performance.now();
    fn();
    if (i > 0) times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Quote location and one candidate's validation after N characters of blank lines (linear: 10× N, 10× time). */
export function quoteRows(row) {
  for (const n of SIZES) {
    const turn = blankLinesTurn(n);
    const repeats = n >= 1_000_000 ? 5 : 15;
    row(
      `quote location after ${n.toLocaleString('en-US')} blank-line chars`,
      timed(repeats, () => locateQuote(turn.userText, '以后回答先给结论.')),
    );
    const context = { threadId: 't-1', turns: new Map([['turn-1', turn]]), adjacent: null };
    row(
      `validate 1 candidate, ${n.toLocaleString('en-US')} blank-line chars`,
      timed(repeats, () => {
        if (!validateCandidate(candidate('回答先给结论'), context).ok) throw new Error('the quote must validate');
      }),
      n === 1_000_000 ? { target: { p95: 1_000_000 } } : {},
    );
  }
}

/**
 * The longest the event loop went without a turn while one batch (8 candidates quoting a 1M-character turn) was
 * validated off the loop, and the batch's time; the target is 50 ms at a time.
 */
export async function loopRows(results, log) {
  const turn = blankLinesTurn(1_000_000);
  const context = { threadId: 't-1', turns: new Map([['turn-1', turn]]), adjacent: null };
  const read = {
    compaction: '',
    candidates: Array.from({ length: 8 }, (_, k) => candidate(`回答先给结论 ${k}`)),
    refused: [],
    repairs: [],
  };
  await screenOffLoop(read, context); // starts the validation thread
  const gaps = [];
  const batches = [];
  for (let round = 0; round < 5; round += 1) {
    let last = performance.now();
    let gap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 1);
    const start = performance.now();
    const screened = await screenOffLoop(read, context);
    batches.push(performance.now() - start);
    clearInterval(timer);
    gaps.push(Math.max(gap, performance.now() - last));
    if (screened.valid.length !== 8) throw new Error('every candidate must validate');
  }
  gaps.sort((a, b) => a - b);
  batches.sort((a, b) => a - b);
  results.rows.push({
    operation: 'event loop during validation, 8 candidates × 1M chars',
    maxGapMs: gaps.at(-1),
    batchMsP50: percentile(batches, 50),
  });
  log(
    `  event loop during validation (8 candidates × 1M chars): longest wait ${gaps.at(-1).toFixed(1)} ms (target ≤ 50), ` +
      `batch ${percentile(batches, 50).toFixed(0)} ms p50`,
  );
}

/** N pending extraction jobs, one turn each, in the active thread (seeded by SQL: beginTurn would fsync each). */
async function backlogRepo(n) {
  const repo = freshRepo(`drain-${n}`);
  await repo.close();
  const conn = Connection.open(join(repo.dir, '.autopatch-j', 'memory.db'));
  conn.db.pragma('synchronous = OFF');
  const turn = conn.db.prepare(
    `INSERT INTO turns (id, thread_id, sequence, intent, user_text, assistant_text, state, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, 'general_chat', ?, 'ok', 'completed', ?, ?, ?)`,
  );
  const job = conn.db.prepare(
    `INSERT INTO memory_jobs (id, kind, status, thread_id, turn_id, turn_sequence, generation, available_at, created_at, updated_at)
     VALUES (?, 'extraction', 'pending', ?, ?, ?, 1, ?, ?, ?)`,
  );
  const base = Date.now() - 60_000;
  conn.db.transaction(() => {
    for (let k = 0; k < n; k += 1) {
      const id = k.toString(16).padStart(12, '0');
      turn.run(`turn-${id}`, repo.threadId, k + 1, `第 ${k} 个问题：解析器怎么处理空行？`, base, base, base);
      job.run(`job-${id}`, repo.threadId, `turn-${id}`, k + 1, base, base, base);
    }
  })();
  conn.db.pragma('wal_checkpoint(TRUNCATE)');
  conn.close();
  return repo;
}

/** Jobs per second the background worker drains from a backlog of 1k / 10k / 100k with an instant model. */
export async function drainRows(results, log, sizes = [1_000, 10_000, 100_000]) {
  for (const n of sizes) {
    const repo = await backlogRepo(n);
    const llm = new ScriptedLlm().always('memory_extraction', () => ({ content: '{"thread_compaction":"","candidates":[]}' }));
    const memory = MemoryManager.open({ repoRoot: repo.dir, llm });
    // The first 1,000 jobs at the head of the backlog (250 batches of 4), as the background worker meets them:
    // the rate must not fall as the backlog behind them grows.
    const start = performance.now();
    const processed = await memory.processDue({ force: true, maxBatches: 250 });
    const ms = performance.now() - start;
    const drained = processed.outcomes.reduce((sum, o) => sum + o.jobIds.length, 0);
    await memory.close();
    repo.remove();
    results.rows.push({ operation: `background drain, ${n} queued`, jobsPerSecond: (drained / ms) * 1000, drained, ms });
    log(
      `  background drain with ${n.toLocaleString('en-US')} queued: ${((drained / ms) * 1000).toFixed(0)} jobs/s (${drained} jobs in ${ms.toFixed(0)} ms)`,
    );
  }
}
