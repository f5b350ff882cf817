import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import type { ConsolidationPayload } from '../../src/memory/pipeline/contracts.js';
import { consolidateWith, extractWith, quoteUser } from './scripted.js';
import { ManualClock } from './temp-repo.js';

type Candidate = ConsolidationPayload['candidates'][number];

const KIND_OF: [RegExp, string][] = [
  [/比较方案|comparing/, 'discussion_context'],
  [/^Decision:|决定/, 'project_decision'],
  [/以后|from now on/i, 'user_preference'],
];

/** The scripted model of a rich Memory: candidates by the words of the turn, revise/supersede by marker. */
export function richModel(): ScriptedLlm {
  return new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith((turn) => {
        const kind = KIND_OF.find(([pattern]) => pattern.test(turn.user))?.[1];
        return kind ? [quoteUser(kind, turn.user.replace(/[。.]$/, ''), turn)] : [];
      }),
    )
    .always(
      'memory_consolidation',
      consolidateWith((c: Candidate, p: ConsolidationPayload) => {
        const quote = c.sources[0]!.quote;
        const target = (needle: string): string | null => p.active_items.find((i) => i.title.includes(needle))?.item_id ?? null;
        const base = {
          candidate_ids: [c.candidate_id],
          title: c.title,
          content: c.content,
          synopsis: '',
          aliases: c.aliases,
          keywords: [],
        };
        if (quote.includes('再给例子') && target('回答先给结论'))
          return { ...base, operation: 'revise', target_id: target('回答先给结论') };
        if (quote.includes('改为') && target('代码注释')) return { ...base, operation: 'supersede', target_id: target('代码注释') };
        return { ...base, operation: 'create', target_id: null };
      }),
    );
}

/**
 * A project Memory with every kind of row an export carries: preferences (one revised, one superseded, one
 * forgotten), decisions in Chinese and English, a discussion, an archived thread, a failed turn, turns with
 * no candidate, and one completed turn whose extraction job is still pending. Returns the manager, closed.
 */
export async function buildRichMemory(repo: string, clock = new ManualClock()): Promise<void> {
  const memory = MemoryManager.open({ repoRoot: repo, llm: richModel(), now: clock.now });
  const say = async (text: string, answer = 'noted'): Promise<void> => {
    clock.advance(60_000);
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: text }), answer);
    await memory.processDue({ force: true });
  };
  await say('以后回答先给结论。', '好的，先给结论。');
  await say('Decision: we use pnpm for every install, never npm.');
  await say('以后代码注释用英文。');
  await say('我们在比较方案 A 和方案 B 的缓存策略。');
  await say('以后不要用 emoji。');
  const forget = memory.list().find((i) => i.title.includes('emoji'))!;
  memory.forget(forget.id);
  await memory.newThread();
  await say('以后回答先给结论，再给例子。\n第二行：包括 <!-- autopatch-j:memory:end --> 和 **星号**。');
  await say('以后代码注释不再用英文，改为中文。');
  await say('我们决定采用 PostgreSQL 作为主数据库。');
  await say('现在我们在比较方案：缓存用 Redis 还是 Memcached。');
  await say('what does the parser do?', 'It splits the input on commas.');
  clock.advance(60_000);
  memory.failTurn(memory.beginTurn({ intent: 'code_explain', userText: 'explain src/x.ts (this request failed)' }), new Error('HTTP 500'));
  clock.advance(60_000);
  memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: 'still waiting for extraction' }), 'ok');
  await memory.close();
}
