import { afterAll, describe, expect, it } from 'vitest';
import { type ExtractionRead, readExtractionAnswer } from '../../../src/memory/pipeline/contracts.js';
import { screenCandidates } from '../../../src/memory/pipeline/extraction.js';
import { screenSliced } from '../../../src/memory/pipeline/screening.js';
import type { ContextTurn, ValidationContext } from '../../../src/memory/pipeline/validation.js';

/**
 * Validation off the event loop (a candidate at a time, or on a worker thread for a large batch) must give
 * exactly what one `screenCandidates` call gives: accepted candidates, suggestions with their verified quotes,
 * refusals with their reasons and keepability, the counts, and the one-per-kind-and-title check (M-5.4, M-5.7).
 */

const turn = (id: string, sequence: number, userText: string): ContextTurn => ({
  id,
  threadId: 'th',
  sequence,
  state: 'completed',
  userText,
  assistantText: '好的。',
});

function batch(padding = ''): { read: ExtractionRead; context: ValidationContext } {
  const turns = [
    turn('t1', 1, '以后默认用 pnpm 安装依赖。'),
    turn('t2', 2, '以后尽量用中文回答。'),
    turn('t3', 3, '要不要用 Redis 做缓存？'),
    turn('t4', 4, `From now on, lead every answer with the conclusion.${padding}`),
  ];
  const pref = (title: string, turnId: string, quote: string, kind = 'user_preference') => ({
    kind,
    title,
    content: title,
    aliases: [],
    sources: [{ turn_id: turnId, role: 'user', quote }],
  });
  const answer = {
    thread_compaction: 'summary',
    candidates: [
      pref('默认用 pnpm', 't1', '以后默认用 pnpm 安装依赖。'),
      pref('用中文回答', 't2', '以后尽量用中文回答。'),
      pref('用 Redis 做缓存', 't3', '要不要用 Redis 做缓存？', 'project_decision'),
      pref('Lead with the conclusion', 't4', 'From now on, lead every answer with the conclusion.'),
      pref('默认用 pnpm', 't1', '默认用 pnpm'),
      pref('not in the text', 't1', '以后默认用 yarn'),
      { kind: 'user_preference', title: '', content: '', aliases: [], sources: [] },
    ],
  };
  return {
    read: readExtractionAnswer(JSON.stringify(answer), 'stop'),
    context: { threadId: 'th', turns: new Map(turns.map((t) => [t.id, t])), adjacent: null },
  };
}

describe('screening off the event loop', () => {
  it('the batch holds accepted, suggested and refused candidates (a keepable one, a duplicate, a contract break)', () => {
    const { read, context } = batch();
    const once = screenCandidates(read, context);
    expect(once.valid.map((c) => c.title)).toEqual(['默认用 pnpm', 'Lead with the conclusion']);
    expect(once.suggested.map((c) => [c.title, c.reason])).toEqual([['用中文回答', 'weakened']]);
    const reasons = once.diagnostics.rejections.map((r) => r.reason);
    expect(reasons).toEqual(expect.arrayContaining(['contract', 'duplicate_candidate', 'quote_not_found']));
    expect(once.diagnostics.rejections.some((r) => r.keepable === true && r.candidate !== undefined)).toBe(true);
    expect(once.diagnostics.rejections.find((r) => r.reason === 'quote_not_found')?.keepable).toBe(false);
  });

  it('a candidate at a time gives exactly one screenCandidates call', async () => {
    const { read, context } = batch();
    expect(await screenSliced(read, context)).toEqual(screenCandidates(read, context));
  });

  describe('on the worker thread (the compiled tree)', () => {
    let stop: (() => Promise<void>) | null = null;
    afterAll(async () => stop?.());

    it('a batch over the threshold is screened on the thread, with the same result', async () => {
      const screening =
        (await import('../../../dist/memory/pipeline/screening.js')) as typeof import('../../../src/memory/pipeline/screening.js');
      stop = screening.stopScreenThread;
      const { read, context } = batch(`\n\n${'x'.repeat(screening.THREAD_THRESHOLD_CHARS)}`);
      const expected = screenCandidates(read, context);
      expect(expected.suggested).toHaveLength(1);
      // Null would mean the thread could not run (and the loop took over): here it must run.
      expect(await screening.screenOnThread(read, context)).toEqual(expected);
      expect(await screening.screenOffLoop(read, context)).toEqual(expected);
    });
  });
});
