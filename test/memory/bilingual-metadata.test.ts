import { describe, expect, it } from 'vitest';
import { ScriptedLlm } from '../../src/index.js';
import { CONSOLIDATION_SYSTEM_PROMPT } from '../../src/memory/pipeline/consolidation.js';
import { consolidationPayload, extractWith, quoteUser } from '../helpers/scripted.js';
import { tempRepo } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

// Consolidation answers in the shape DeepSeek and Qwen give to the prompt: fenced JSON, aliases and keywords in
// both languages with the usual abbreviations, whatever the language of the quote.
const ANSWERS: Record<string, { title: string; content: string; synopsis: string; aliases: string[]; keywords: string[] }> = {
  '以后接口都要加限流，登录接口每秒最多 5 次。': {
    title: '接口限流：登录接口每秒最多 5 次',
    content: '接口都要加限流，登录接口每秒最多 5 次。',
    synopsis: '登录接口限流每秒 5 次',
    aliases: ['限流', 'rate limiting', 'rate limiter', '登录限流', 'login rate limit'],
    keywords: ['限流', 'rate limit', '登录接口', 'login API', 'throttling'],
  },
  'From now on integration tests run against a real Postgres in Docker.': {
    title: 'Integration tests use a real Postgres in Docker',
    content: 'Integration tests run against a real Postgres in Docker.',
    synopsis: 'Integration tests on a real Postgres',
    aliases: ['集成测试', 'integration test', 'IT', '集成测试数据库'],
    keywords: ['integration tests', 'Postgres', 'PostgreSQL', 'Docker', '集成测试', '数据库'],
  },
};

describe('bilingual metadata (issue 23 item 3)', () => {
  it('the consolidation prompt asks for aliases and keywords in both languages, with abbreviations and synonyms', () => {
    expect(CONSOLIDATION_SYSTEM_PROMPT).toMatch(/BOTH Chinese and English/);
    expect(CONSOLIDATION_SYSTEM_PROMPT).toMatch(/abbreviations/);
    expect(CONSOLIDATION_SYSTEM_PROMPT).toMatch(/search terms, not memory text/);
    // A product may also be found by the kind of tool it is ("message queue" for RabbitMQ).
    expect(CONSOLIDATION_SYSTEM_PROMPT).toMatch(/general kind it is/);
  });

  it('realistic answers: a memory said in one language is found by search in the other and by its abbreviation', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => [quoteUser('project_decision', ANSWERS[t.user]!.title, t, t.user.replace(/^以后|^From now on /, ''))]),
      )
      .always('memory_consolidation', (request) => {
        const payload = consolidationPayload(request);
        const operations = payload.candidates.map((c) => {
          const answer = Object.values(ANSWERS).find((a) => a.title === c.title)!;
          return { operation: 'create', candidate_ids: [c.candidate_id], target_id: null, ...answer };
        });
        return { content: `Here is the consolidation:\n\`\`\`json\n${JSON.stringify({ operations }, null, 2)}\n\`\`\`` };
      });
    const memory = openMemory({ repoRoot: repo, llm });
    for (const text of Object.keys(ANSWERS)) {
      const h = memory.beginTurn({ intent: 'general_chat', userText: text });
      memory.completeTurn(h, 'OK');
    }
    await memory.processDue({ force: true });
    expect(memory.list()).toHaveLength(2);
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    const first = (q: string): string | undefined => memory.search(handle, q)[0]?.title;
    expect(first('rate limiting for the login api')).toBe('接口限流：登录接口每秒最多 5 次');
    expect(first('throttling')).toBe('接口限流：登录接口每秒最多 5 次');
    expect(first('集成测试用什么数据库')).toBe('Integration tests use a real Postgres in Docker');
    expect(first('IT')).toBe('Integration tests use a real Postgres in Docker');
    memory.failTurn(handle);
  });
});
