import { describe, expect, it } from 'vitest';
import { type ChatRequest, type ChatResponse, MemoryManager, ScriptedLlm } from '../../../src/index.js';
import { consolidateWith, consolidationPayload, extractWith, quoteUser } from '../../helpers/scripted.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../../helpers/temp-repo.js';
import { openMemory } from '../../helpers/memory.js';

/** A manager whose model extracts one preference per turn (the whole user text as the quote). */
function setup(titleOf: (user: string) => string = (u) => u.replace(/^.*?(以后|from now on,?)\s*/i, '').replace(/[。.]$/, '')) {
  const repo = tempRepo();
  const clock = new ManualClock();
  const llm = new ScriptedLlm().always(
    'memory_extraction',
    extractWith((turn) => (/以后|from now on/i.test(turn.user) ? [quoteUser('user_preference', titleOf(turn.user), turn)] : [])),
  );
  const memory = MemoryManager.open({ repoRoot: repo, llm, now: clock.now });
  return { repo, clock, llm, memory };
}

async function say(memory: MemoryManager, text: string): Promise<void> {
  const h = memory.beginTurn({ intent: 'general_chat', userText: text });
  memory.completeTurn(h, 'noted');
  await memory.processDue({ force: true });
}

describe('M-6.1 consolidation is all or nothing', () => {
  it('one invalid operation rolls back the whole consolidation; the active view is unchanged and the job retries', async () => {
    const { repo, llm, memory } = setup();
    llm.enqueue('memory_consolidation', consolidateWith());
    await say(memory, '以后回答先给结论。');
    const before = memory.list();
    expect(before).toHaveLength(1);

    const bad = (request: ChatRequest): ChatResponse => {
      const [first, second] = consolidationPayload(request).candidates;
      return {
        content: JSON.stringify({
          operations: [
            {
              operation: 'create',
              candidate_ids: [first!.candidate_id],
              target_id: null,
              title: 'A',
              content: 'A',
              synopsis: '',
              aliases: [],
              keywords: [],
            },
            {
              operation: 'revise',
              candidate_ids: [second!.candidate_id],
              target_id: 'm-does-not-exist',
              title: 'B',
              content: 'B',
              synopsis: '',
              aliases: [],
              keywords: [],
            },
          ],
        }),
      };
    };
    // M-9.4a: an invalid consolidation is re-asked once at once; the model repeats itself.
    llm.enqueue('memory_consolidation', bad, bad);
    const h1 = memory.beginTurn({ intent: 'general_chat', userText: '以后用中文回答。' });
    memory.completeTurn(h1, 'ok');
    const h2 = memory.beginTurn({ intent: 'general_chat', userText: '以后代码注释用英文。' });
    memory.completeTurn(h2, 'ok');
    const result = await memory.processDue({ force: true });
    expect(result.outcomes.map((o) => [o.kind, o.outcome])).toEqual([
      ['extraction', 'succeeded'],
      ['consolidation', 'retry'],
    ]);
    expect(memory.list()).toEqual(before);
    const candidates = withRawDb(dbPathOf(repo), (db) =>
      db.prepare("SELECT count(*) AS n FROM memory_candidates WHERE status = 'pending'").get(),
    );
    expect(candidates).toEqual({ n: 2 });
    expect(memory.status().lastError).toMatch(/target m-does-not-exist is not one of the active items/);
    await memory.close();
  });

  const invalid: [string, (payload: ReturnType<typeof consolidationPayload>) => object[]][] = [
    [
      'a candidate handled twice',
      (p) => [
        {
          operation: 'create',
          candidate_ids: [p.candidates[0]!.candidate_id],
          target_id: null,
          title: 'A',
          content: 'A',
          synopsis: '',
          aliases: [],
          keywords: [],
        },
        {
          operation: 'reject',
          candidate_ids: [p.candidates[0]!.candidate_id],
          target_id: null,
          title: '',
          content: '',
          synopsis: '',
          aliases: [],
          keywords: [],
        },
      ],
    ],
    ['a candidate not handled', () => []],
    [
      'an unknown candidate id',
      (p) => [
        {
          operation: 'create',
          candidate_ids: [p.candidates[0]!.candidate_id, 'cand-forged'],
          target_id: null,
          title: 'A',
          content: 'A',
          synopsis: '',
          aliases: [],
          keywords: [],
        },
      ],
    ],
    [
      'create with a target',
      (p) => [
        {
          operation: 'create',
          candidate_ids: [p.candidates[0]!.candidate_id],
          target_id: p.active_items[0]?.item_id ?? 'x',
          title: 'A',
          content: 'A',
          synopsis: '',
          aliases: [],
          keywords: [],
        },
      ],
    ],
  ];
  for (const [name, ops] of invalid) {
    it(`refuses ${name}`, async () => {
      const { llm, memory } = setup();
      const answer = (r: ChatRequest): ChatResponse => ({ content: JSON.stringify({ operations: ops(consolidationPayload(r)) }) });
      llm.enqueue('memory_consolidation', answer, answer);
      await say(memory, '以后回答先给结论。');
      expect(memory.list()).toEqual([]);
      expect(memory.status().jobs.retryWait).toBe(1);
      expect(llm.requestsFor('memory_consolidation')).toHaveLength(2);
      await memory.close();
    });
  }

  it('an operation with an empty title is refused alone (contract); the job completes', async () => {
    const { llm, memory } = setup();
    llm.enqueue('memory_consolidation', (r) => {
      const p = consolidationPayload(r);
      return {
        content: JSON.stringify({
          operations: [
            {
              operation: 'create',
              candidate_ids: [p.candidates[0]!.candidate_id],
              target_id: null,
              title: ' ',
              content: 'A',
              synopsis: '',
              aliases: [],
              keywords: [],
            },
          ],
        }),
      };
    });
    await say(memory, '以后回答先给结论。');
    expect(memory.list()).toEqual([]);
    expect(memory.status().jobs.retryWait).toBe(0);
    expect(memory.status().filteredCandidates.byReason['contract']).toBe(1);
    await memory.close();
  });

  it('kinds never merge: one operation over a preference and a decision is refused', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => [
          quoteUser('user_preference', '回答先给结论', t, '以后回答先给结论'),
          quoteUser('project_decision', '采用 ruff', t, '我们决定采用 ruff'),
        ]),
      )
      .always('memory_consolidation', (r) => {
        const ids = consolidationPayload(r).candidates.map((c) => c.candidate_id);
        return {
          content: JSON.stringify({
            operations: [
              {
                operation: 'create',
                candidate_ids: ids,
                target_id: null,
                title: 'Both',
                content: 'Both',
                synopsis: '',
                aliases: [],
                keywords: [],
              },
            ],
          }),
        };
      });
    const memory = openMemory({ repoRoot: repo, llm });
    const h = memory.beginTurn({ intent: 'general_chat', userText: '以后回答先给结论。我们决定采用 ruff。' });
    memory.completeTurn(h, 'ok');
    await memory.processDue({ force: true });
    expect(memory.list()).toEqual([]);
    expect(memory.status().lastError).toMatch(/merges kinds/);
  });
});

describe('M-6.2 revisions and supersede', () => {
  it('revise appends a revision under the same id; supersede makes a new id and retires the old item', async () => {
    const { repo, llm, memory } = setup();
    llm.enqueue('memory_consolidation', consolidateWith());
    await say(memory, '以后回答先给结论。');
    const [original] = memory.list();

    llm.enqueue(
      'memory_consolidation',
      consolidateWith((c, p) => ({
        operation: 'revise',
        candidate_ids: [c.candidate_id],
        target_id: p.active_items[0]!.item_id,
        title: '回答先给结论，再给例子',
        content: '回答先给结论，然后给一个例子。',
        synopsis: '',
        aliases: ['conclusion first'],
        keywords: [],
      })),
    );
    await say(memory, '以后回答先给结论，再给例子。');
    const [revised] = memory.list();
    expect(revised!.id).toBe(original!.id);
    expect(revised!.revision).toBe(2);
    const detail = memory.show(original!.id);
    expect(detail.revisions.map((r) => [r.revision, r.status])).toEqual([
      [1, 'superseded'],
      [2, 'active'],
    ]);
    expect(detail.sources.map((s) => s.quote)).toEqual(['以后回答先给结论，再给例子。', '以后回答先给结论。']);
    // Old revision rows are never edited.
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare('SELECT title FROM memory_items WHERE id = ? AND revision = 1').get(original!.id)).toEqual({
        title: '回答先给结论',
      });
      expect(() => db.prepare("UPDATE memory_items SET content = 'edited' WHERE id = ?").run(original!.id)).toThrow(/append-only/);
    });

    llm.enqueue(
      'memory_consolidation',
      consolidateWith((c, p) => ({
        operation: 'supersede',
        candidate_ids: [c.candidate_id],
        target_id: p.active_items[0]!.item_id,
        title: '回答先给代码',
        content: '回答先给代码，再解释。',
        synopsis: '',
        aliases: [],
        keywords: [],
      })),
    );
    // M-6.4: a supersede needs the user's words replacing the old choice.
    await say(memory, '以后回答不再先给结论，改为先给代码，再解释。');
    const [current] = memory.list();
    expect(current!.id).not.toBe(original!.id);
    expect(memory.show(current!.id).supersedes).toBe(original!.id);
    expect(memory.show(original!.id)).toMatchObject({ status: 'superseded', supersededBy: current!.id });
    const h = memory.beginTurn({ intent: 'general_chat', userText: 'q' });
    // The superseded item is never returned (M-7.3); the ranked stage may find its successor, about the same thing.
    expect(memory.search(h, '回答先给结论').map((x) => x.id)).not.toContain(original!.id);
    expect(memory.search(h, '回答先给代码').map((x) => x.id)).toEqual([current!.id]);
    expect(() => memory.read(h, original!.id)).toThrow(/not usable/);
    memory.failTurn(h);
    await memory.close();
  });

  it('a supersede across kinds or of a discussion is refused', async () => {
    const { llm, memory } = setup();
    llm.enqueue('memory_consolidation', consolidateWith());
    await say(memory, '以后回答先给结论。');
    llm.enqueue(
      'memory_consolidation',
      consolidateWith((c) => ({
        operation: 'supersede',
        candidate_ids: [c.candidate_id],
        target_id: 'mnotgiven',
        title: 'x',
        content: 'x',
        synopsis: '',
        aliases: [],
        keywords: [],
      })),
    );
    await say(memory, '以后回答用中文。');
    expect(memory.list()).toHaveLength(1);
    expect(memory.status().jobs.retryWait).toBe(1);
    await memory.close();
  });
});

describe('M-6.3 forget', () => {
  it('removes the item from search and routing at once, keeps RAW turns, and old evidence never rebuilds it', async () => {
    const { repo, llm, memory } = setup();
    llm.always('memory_consolidation', consolidateWith());
    await say(memory, '以后回答先给结论。');
    const [item] = memory.list();
    const h = memory.beginTurn({ intent: 'general_chat', userText: 'q' });
    expect(memory.routingContext(h)).toContain('回答先给结论');
    const result = memory.forget(item!.id.slice(0, 5));
    expect(result).toMatchObject({ id: item!.id, suppressedCandidates: 1, compactionsReset: 1, rawTurnsKept: true });
    expect(memory.search(h, '回答先给结论')).toEqual([]);
    expect(memory.routingContext(h)).toBe('');
    expect(memory.list()).toEqual([]);
    memory.failTurn(h);
    expect(memory.status().turns.completed).toBe(1);

    // Replaying the old extraction (a retried or duplicated job) cannot rebuild it from the old quote.
    withRawDb(dbPathOf(repo), (db) =>
      db.prepare("UPDATE memory_jobs SET status = 'pending', finished_at = NULL WHERE kind = 'extraction'").run(),
    );
    await memory.processDue({ force: true });
    expect(memory.list()).toEqual([]);
    expect(memory.status().filteredCandidates.byReason['suppressed_evidence']).toBe(1);

    // A new explicit statement may form a new memory.
    await say(memory, '以后回答先给结论，这是新的要求。');
    expect(memory.list().map((i) => i.title)).toEqual(['回答先给结论，这是新的要求']);
    await memory.close();
  });
});
