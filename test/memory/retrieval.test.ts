import { describe, expect, it } from 'vitest';
import { MemoryManager, MemoryNotFoundError, ScriptedLlm } from '../../src/index.js';
import { Connection } from '../../src/memory/db/connection.js';
import { HISTORY_BUDGET, ROUTING_BUDGET } from '../../src/memory/retrieval/projection.js';
import { searchMemory } from '../../src/memory/retrieval/search.js';
import { consolidateWith, extractWith, quoteUser } from '../helpers/scripted.js';
import { seedItems } from '../helpers/seed-items.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

function open(repo: string): { memory: MemoryManager; handle: ReturnType<MemoryManager['beginTurn']> } {
  const memory = MemoryManager.open({ repoRoot: repo });
  const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
  return { memory, handle };
}

describe('search match classes (M-7.2 – M-7.5)', () => {
  it('exact, prefix, substring and content hits, in that order, at most 5', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'user_preference', title: 'Cache policy' },
      { kind: 'user_preference', title: 'Cache policy for builds' },
      { kind: 'project_decision', title: 'Use write-through caching', aliases: ['cache policy'] },
      { kind: 'project_decision', title: 'Database', content: 'We keep a cache policy document next to the schema.' },
      { kind: 'project_decision', title: 'Unrelated thing', content: 'nothing to see' },
    ]);
    const { memory, handle } = open(repo);
    const hits = memory.search(handle, 'Cache Policy');
    expect(hits.map((h) => [h.title, h.match])).toEqual([
      ['Use write-through caching', 'exact'],
      ['Cache policy', 'exact'],
      ['Cache policy for builds', 'prefix'],
      ['Database', 'content'],
    ]);
    expect(memory.search(handle, 'policy for').map((h) => [h.title, h.match])).toEqual([['Cache policy for builds', 'substring']]);
    // M-7.7: a Latin substring starts on a word boundary.
    expect(memory.search(handle, 'olicy for')).toEqual([]);
    await memory.close();
  });

  it('never more than 5 hits, and zero text hits return [] (no top-up by recency or importance)', async () => {
    const repo = tempRepo();
    seedItems(
      repo,
      Array.from({ length: 12 }, (_, i) => ({ kind: 'user_preference' as const, title: `lint rule ${i}` })),
    );
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'lint')).toHaveLength(5);
    expect(memory.search(handle, 'kubernetes')).toEqual([]);
    expect(memory.search(handle, '')).toEqual([]);
    expect(memory.search(handle, '   ')).toEqual([]);
    expect(memory.search(handle, 'x'.repeat(257))).toEqual([]);
    await memory.close();
  });

  it('a long query containing a short common word finds nothing', async () => {
    const repo = tempRepo();
    seedItems(repo, [{ kind: 'project_decision', title: 'Go', aliases: ['go'], content: 'The agent is written in Go.' }]);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'go').map((h) => h.title)).toEqual(['Go']);
    expect(memory.search(handle, 'should we go to the meetup about observability')).toEqual([]);
    await memory.close();
  });

  it('Chinese and English queries, mixed text, full-width and half-width are equivalent', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'user_preference', title: '回答先给结论', content: '回答时先给结论，再解释原因。' },
      { kind: 'project_decision', title: '统一使用 ＰＮＰＭ', content: '项目统一使用 pnpm 管理依赖。' },
      { kind: 'project_decision', title: 'Adopt ruff', content: 'Lint Python with ruff.' },
    ]);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, '先给结论').map((h) => h.match)).toEqual(['substring']);
    expect(memory.search(handle, '解释原因').map((h) => [h.title, h.match])).toEqual([['回答先给结论', 'content']]);
    expect(memory.search(handle, 'pnpm').map((h) => h.title)).toEqual(['统一使用 ＰＮＰＭ']);
    expect(memory.search(handle, '统一使用 pnpm').map((h) => [h.title, h.match])).toEqual([['统一使用 ＰＮＰＭ', 'exact']]);
    expect(memory.search(handle, 'ＲＵＦＦ').map((h) => h.title)).toEqual(['Adopt ruff']);
    // M-7.7: Chinese words in another order still find the item they describe; an unrelated word does not.
    expect(memory.search(handle, '依赖管理').map((h) => [h.title, h.match])).toEqual([['统一使用 ＰＮＰＭ', 'content']]);
    expect(memory.search(handle, '部署流程')).toEqual([]);
    await memory.close();
  });

  it('M-7.4: a search runs at most three SELECT/WITH statements and no per-item query', async () => {
    const repo = tempRepo();
    seedItems(
      repo,
      Array.from({ length: 40 }, (_, i) => ({
        kind: 'project_decision' as const,
        title: `decision ${i}`,
        content: `shared words topic ${i}`,
      })),
    );
    const { memory, handle } = open(repo);
    const statements: string[] = [];
    const conn = Connection.open(dbPathOf(repo), { verbose: (sql) => statements.push(String(sql)) });
    for (const query of ['decision 1', 'cision', 'shared words', 'nothing here at all', '']) {
      statements.length = 0;
      searchMemory(conn, handle.threadId, query);
      expect(statements.length, query).toBeLessThanOrEqual(3);
      expect(
        statements.every((s) => /^\s*(SELECT|WITH)\b/i.test(s)),
        query,
      ).toBe(true);
    }
    statements.length = 0;
    expect(searchMemory(conn, handle.threadId, 'shared words')).toHaveLength(5);
    expect(statements).toHaveLength(3);
    conn.close();
    await memory.close();
  });
});

describe('visibility (M-7.3, M-3.3)', () => {
  it('after /new the archived discussion is invisible while preferences stay; old handles stay bound', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith(
          (t) => [
            quoteUser('discussion_context', '比较方案 A 和方案 B', t, '我们在比较方案 A 和方案 B'),
            quoteUser('user_preference', '回答先给结论', t, '以后回答先给结论'),
          ],
          () => 'OLD THREAD SUMMARY',
        ),
      )
      .always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    const first = memory.beginTurn({ intent: 'general_chat', userText: '我们在比较方案 A 和方案 B。以后回答先给结论。' });
    memory.completeTurn(first, '好的');
    await memory.processDue({ force: true });
    const old = memory.beginTurn({ intent: 'general_chat', userText: 'still in the old thread' });
    await memory.newThread();
    const fresh = memory.beginTurn({ intent: 'general_chat', userText: 'new thread' });
    expect(memory.search(fresh, '方案 A').map((h) => h.title)).toEqual([]);
    expect(memory.search(fresh, '结论').map((h) => h.title)).toEqual(['回答先给结论']);
    expect(memory.routingContext(fresh)).not.toContain('比较方案');
    expect(memory.routingContext(fresh)).not.toContain('OLD THREAD SUMMARY');
    expect(memory.history(fresh)).toEqual([]);
    expect(memory.list().map((i) => i.kind)).toEqual(['user_preference']);
    // The request admitted before /new keeps its thread until it ends (M-3.3).
    expect(memory.search(old, '方案 A').map((h) => h.title)).toEqual(['比较方案 A 和方案 B']);
    expect(memory.routingContext(old)).toContain('OLD THREAD SUMMARY');
    expect(memory.history(old).map((m) => m.content)).toEqual(['我们在比较方案 A 和方案 B。以后回答先给结论。', '好的']);
    const discussion = memory.search(old, '方案 A')[0]!;
    expect(memory.read(old, discussion.id).nonFactual).toBe(true);
    expect(() => memory.read(fresh, discussion.id)).toThrow(MemoryNotFoundError);
    expect(memory.show(discussion.id).kind).toBe('discussion_context');
    memory.completeTurn(old, 'done');
  });

  it('show works while degraded, with its sources; list and forget do not', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => [quoteUser('user_preference', '回答先给结论', t)]),
      )
      .always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    const h = memory.beginTurn({ intent: 'general_chat', userText: '以后回答先给结论。' });
    memory.completeTurn(h, 'ok');
    await memory.processDue({ force: true });
    const [item] = memory.list();
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => db.exec('CREATE TABLE foo (x)'));
    const degraded = openMemory({ repoRoot: repo });
    expect(degraded.status().health).toBe('degraded');
    expect(degraded.show(item!.id.slice(0, 6))).toMatchObject({
      title: '回答先给结论',
      sources: [{ role: 'user', quote: '以后回答先给结论。', sequence: 1 }],
    });
    expect(() => degraded.list()).toThrow(/degraded/);
    expect(() => degraded.forget(item!.id)).toThrow(/degraded/);
  });

  it('show and forget accept a unique prefix of at least 4 characters', async () => {
    const repo = tempRepo();
    const [a, b] = seedItems(repo, [
      { kind: 'user_preference', title: 'first' },
      { kind: 'user_preference', title: 'second' },
    ]);
    const { memory } = open(repo);
    expect(memory.show(a!.slice(0, 9)).title).toBe('first');
    expect(() => memory.show('mse')).toThrow(/at least 4/);
    expect(() => memory.show('mseed')).toThrow(/matches several memories/);
    expect(memory.forget(b!).title).toBe('second');
    expect(() => memory.forget(b!)).toThrow(/forgotten, not active/);
    await memory.close();
  });
});

describe('bounded inputs (M-7.6, M-8.1, M-8.2)', () => {
  it('healthy empty Memory: [] and ""', async () => {
    const { memory, handle } = open(tempRepo());
    expect(memory.history(handle)).toEqual([]);
    expect(memory.routingContext(handle)).toBe('');
    expect(memory.search(handle, 'anything')).toEqual([]);
    expect(memory.list()).toEqual([]);
    await memory.close();
  });

  it('history: at most 8 completed turns, 12,000 characters, oldest first, never the current turn; RAW stays whole', async () => {
    const repo = tempRepo();
    const memory = openMemory({ repoRoot: repo });
    for (let i = 1; i <= 10; i += 1) {
      const h = memory.beginTurn({ intent: 'general_chat', userText: `q${i}` });
      memory.completeTurn(h, `a${i}`);
    }
    const failed = memory.beginTurn({ intent: 'general_chat', userText: 'failed one' });
    memory.failTurn(failed);
    const current = memory.beginTurn({ intent: 'general_chat', userText: 'current' });
    const history = memory.history(current);
    expect(history.map((m) => m.content)).toEqual([
      'q3',
      'a3',
      'q4',
      'a4',
      'q5',
      'a5',
      'q6',
      'a6',
      'q7',
      'a7',
      'q8',
      'a8',
      'q9',
      'a9',
      'q10',
      'a10',
    ]);
    memory.failTurn(current);

    const huge = '长'.repeat(30_000);
    const big = memory.beginTurn({ intent: 'general_chat', userText: huge });
    memory.completeTurn(big, huge);
    const next = memory.beginTurn({ intent: 'general_chat', userText: 'next' });
    const bounded = memory.history(next);
    const total = bounded.reduce((n, m) => n + m.content.length, 0);
    expect(total).toBeLessThanOrEqual(HISTORY_BUDGET);
    expect(bounded).toHaveLength(2);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT length(user_text) AS n FROM turns WHERE id = ?').get(big.turnId))).toEqual({
      n: 30_000,
    });
    memory.failTurn(next);
  });

  it('routing context stays within 4,000 characters with oversized items and compaction, and always keeps the boundary note', async () => {
    const repo = tempRepo();
    seedItems(
      repo,
      Array.from({ length: 60 }, (_, i) => ({
        kind: (['user_preference', 'project_decision', 'discussion_context'] as const)[i % 3]!,
        title: `${'很长的标题'.repeat(30)} ${i}`.slice(0, 160),
        content: 'x'.repeat(4000),
        synopsis: 's'.repeat(400),
      })),
    );
    withRawDb(dbPathOf(repo), (db) =>
      db.prepare("UPDATE threads SET compaction = ?, compaction_sequence = 1 WHERE status = 'active'").run('摘要'.repeat(2000)),
    );
    const { memory, handle } = open(repo);
    const routing = memory.routingContext(handle);
    expect(routing.length).toBeLessThanOrEqual(ROUTING_BUDGET);
    expect(routing).toContain('Memory is not source evidence');
    expect(routing).toContain('User preferences');
    expect(routing).toContain('Conversation so far');
    expect(routing).toMatch(/more; find them with memory_search/);
    await memory.close();
  });

  it('read: bounded detail with at most 3 excerpts of at most 800 characters around the quote', async () => {
    const repo = tempRepo();
    const padding = '前文'.repeat(1500);
    const quote = '以后回答先给结论。';
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => [
          {
            ...quoteUser('user_preference', '回答先给结论', t, quote),
            sources: [1, 2, 3, 4].map(() => ({ turn_id: t.turn_id, role: 'user', quote })),
          },
        ]),
      )
      .always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    for (let i = 0; i < 4; i += 1) {
      const h = memory.beginTurn({ intent: 'general_chat', userText: `${padding}${quote}${padding}` });
      memory.completeTurn(h, 'ok');
    }
    await memory.processDue({ force: true });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    const [item] = memory.list();
    const detail = memory.read(handle, item!.id);
    expect(detail.sources.length).toBeLessThanOrEqual(3);
    for (const s of detail.sources) {
      expect(s.excerpt.length).toBeLessThanOrEqual(800);
      expect(s.excerpt).toContain(quote);
      expect(s.excerpt.startsWith('…')).toBe(true);
    }
    expect(detail.nonFactual).toBe(false);
    memory.failTurn(handle);
  });
});
