import { describe, expect, it } from 'vitest';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import type { ConsolidationPayload } from '../../src/memory/pipeline/contracts.js';
import { consolidateWith, extractionPayload } from '../helpers/scripted.js';
import { ManualClock, tempRepo } from '../helpers/temp-repo.js';

/**
 * The design's own quality cases (M-13.2), through the public API with a scripted model: decision reversal,
 * restating after forget, discussion context from a question, a confirmation with its proposal, code facts and
 * temporary requests refused, an unrelated query without a hit. The model proposes what a compliant model
 * would; what is measured is the program's decision.
 */

type Source = { turn: 'this' | 'previous'; role: 'user' | 'assistant'; quote: string };
interface Proposed {
  kind: string;
  title: string;
  content?: string;
  aliases?: string[];
  sources: Source[];
}
type Operation = (c: ConsolidationPayload['candidates'][number], payload: ConsolidationPayload) => object;

function session() {
  const clock = new ManualClock();
  let next: Proposed[] = [];
  let decide: Operation | undefined;
  const llm = new ScriptedLlm()
    .always('memory_extraction', (request) => {
      const payload = extractionPayload(request);
      const turn = payload.turns.at(-1)!;
      const candidates = next.map((p) => ({
        kind: p.kind,
        title: p.title,
        content: p.content ?? p.title,
        aliases: p.aliases ?? [],
        sources: p.sources.map((s) => ({
          turn_id: s.turn === 'this' ? turn.turn_id : payload.adjacent_previous_turn!.turn_id,
          role: s.role,
          quote: s.quote,
        })),
      }));
      return { content: JSON.stringify({ thread_compaction: '', candidates }) };
    })
    .always('memory_consolidation', (request) => consolidateWith(decide)(request));
  const memory = MemoryManager.open({ repoRoot: tempRepo(), llm, now: clock.now });
  const say = async (user: string, assistant: string, proposed: Proposed[], operation?: Operation): Promise<void> => {
    next = proposed;
    decide = operation;
    const h = memory.beginTurn({ intent: 'general_chat', userText: user });
    memory.completeTurn(h, assistant);
    await memory.processDue({ force: true });
    clock.advance(1_000);
  };
  const probe = () => memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
  return { memory, say, probe };
}

const user = (quote: string): Source => ({ turn: 'this', role: 'user', quote });

describe('M-13.2 design quality cases', () => {
  it('decision reversal: "改一下，最终不使用向量检索，采用小索引和按需读取" supersedes the old decision', async () => {
    const { memory, say } = session();
    await say('Memory v2 决定使用向量检索。', '好的。', [
      { kind: 'project_decision', title: 'Memory v2 使用向量检索', sources: [user('Memory v2 决定使用向量检索。')] },
    ]);
    const old = memory.list();
    expect(old.map((i) => i.title)).toEqual(['Memory v2 使用向量检索']);
    const reversal = '改一下，最终不使用向量检索，采用小索引和按需读取。';
    await say(
      reversal,
      '明白，改为小索引和按需读取。',
      [{ kind: 'project_decision', title: 'Memory v2 不使用向量检索，采用小索引和按需读取', sources: [user(reversal)] }],
      (c, payload) => ({
        operation: 'supersede',
        candidate_ids: [c.candidate_id],
        target_id: payload.active_items.find((i) => i.kind === 'project_decision')!.item_id,
        title: c.title,
        content: c.content,
        synopsis: '',
        aliases: [],
        keywords: [],
      }),
    );
    expect(memory.list().map((i) => i.title)).toEqual(['Memory v2 不使用向量检索，采用小索引和按需读取']);
    expect(memory.show(old[0]!.id).status).toBe('superseded');
  });

  it.each([
    ['不再', 'Memory v2 采用向量检索。', '以后 Memory v2 不再用向量检索，换成小索引。', 'Memory v2 不再用向量检索，换成小索引'],
    [
      'no longer … instead',
      'We decided to use Redis for the cache.',
      'We no longer use Redis for the cache; we use Memcached instead.',
      'No Redis for the cache; Memcached instead',
    ],
    [
      'drop',
      'We decided to adopt Lerna for the monorepo.',
      "Final call: drop Lerna, we're switching the monorepo to Nx.",
      'Drop Lerna; switch the monorepo to Nx',
    ],
  ])('reversal words (%s) let a new decision supersede the old one', async (_words, first, second, title) => {
    const { memory, say } = session();
    await say(first, 'OK.', [{ kind: 'project_decision', title: first.replace(/[.。]$/, ''), sources: [user(first)] }]);
    await say(second, 'OK.', [{ kind: 'project_decision', title, sources: [user(second)] }], (c, payload) => ({
      operation: 'supersede',
      candidate_ids: [c.candidate_id],
      target_id: payload.active_items[0]!.item_id,
      title: c.title,
      content: c.content,
      synopsis: '',
      aliases: [],
      keywords: [],
    }));
    expect(memory.list().map((i) => i.title)).toEqual([title]);
  });

  it('restating after forget: "还是说一下：以后默认用中文回答。" forms the preference again', async () => {
    const { memory, say } = session();
    await say('以后默认用中文回答。', '好的。', [
      { kind: 'user_preference', title: '默认用中文回答', sources: [user('以后默认用中文回答。')] },
    ]);
    const [item] = memory.list();
    memory.forget(item!.id);
    expect(memory.list()).toEqual([]);
    const again = '还是说一下：以后默认用中文回答。';
    await say(again, '好的，以后默认用中文回答。', [{ kind: 'user_preference', title: '默认用中文回答', sources: [user(again)] }]);
    expect(memory.list().map((i) => i.title)).toEqual(['默认用中文回答']);
    expect(memory.list()[0]!.id).not.toBe(item!.id);
  });

  it('discussion context from the user question, and no decision from the assistant answer', async () => {
    const { memory, say } = session();
    const question = '你觉得要不要用向量库？';
    const answer = '我决定使用向量数据库。';
    await say(question, answer, [
      {
        kind: 'discussion_context',
        title: '讨论要不要用向量库',
        content: '用户在问要不要用向量库。',
        sources: [user(question), { turn: 'this', role: 'assistant', quote: answer }],
      },
      { kind: 'project_decision', title: '使用向量数据库', sources: [{ turn: 'this', role: 'assistant', quote: answer }] },
    ]);
    const items = memory.list();
    expect(items.map((i) => i.kind)).toEqual(['discussion_context']);
    expect(memory.show(items[0]!.id).nonFactual).toBe(true);
  });

  it('"官方" in "附上官方文档链接" is a kind of document, not a speaker', async () => {
    const { memory, say } = session();
    const text = '以后提到框架特性的时候，顺便附上官方文档链接';
    await say(text, '好的。', [{ kind: 'user_preference', title: '提到框架特性时附上官方文档链接', sources: [user(text)] }]);
    expect(memory.list().map((i) => i.title)).toEqual(['提到框架特性时附上官方文档链接']);
  });

  it('confirmation with proposal: "同意" with the proposal of the turn before forms a decision citing both', async () => {
    const { memory, say } = session();
    const proposal = '我建议项目统一使用 Python 3.10+。';
    await say('Python 版本怎么定？', proposal, []);
    await say('同意', '好的。', [
      {
        kind: 'project_decision',
        title: '项目统一使用 Python 3.10+',
        sources: [user('同意'), { turn: 'previous', role: 'assistant', quote: proposal }],
      },
    ]);
    const [item] = memory.list();
    expect(item?.title).toBe('项目统一使用 Python 3.10+');
    expect(
      memory
        .show(item!.id)
        .sources.map((s) => s.role)
        .sort(),
    ).toEqual(['assistant', 'user']);
  });

  it('code facts and temporary requests are refused; an unrelated query has no hit', async () => {
    const { memory, say, probe } = session();
    await say('这个表有 3 亿行数据。', '了解。', [
      { kind: 'project_decision', title: '表有 3 亿行', sources: [user('这个表有 3 亿行数据。')] },
    ]);
    await say('这次回答用英文。', 'OK.', [{ kind: 'user_preference', title: '用英文回答', sources: [user('这次回答用英文。')] }]);
    expect(memory.list()).toEqual([]);
    expect(memory.suggestions()).toEqual([]);
    expect(memory.refused().map((r) => [r.reason, r.keepable])).toEqual([
      ['temporary', true],
      ['no_speech_act', true],
    ]);
    await say('以后先给结论。', '好的。', [{ kind: 'user_preference', title: '先给结论', sources: [user('以后先给结论。')] }]);
    const h = probe();
    expect(memory.search(h, '先给结论').length).toBe(1);
    expect(memory.search(h, 'kubernetes 部署')).toEqual([]);
  });
});
