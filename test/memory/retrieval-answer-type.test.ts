import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { asksQuantity, statesQuantity } from '../../src/shared/search-quantity.js';
import { seedItems } from '../helpers/seed-items.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('answer types: a question for a quantity needs an item that states one (M-7.7)', () => {
  it('questions for a quantity: 多久, 多少, 几 with a measure word, "how" with a word of degree', () => {
    for (const q of [
      '缓存保留多久',
      '线程池开多大',
      '网关跑几个实例',
      '重试几次',
      'how long are sessions kept',
      'How many workers per queue',
      'how often do we rotate keys',
    ]) {
      expect(asksQuantity(q), q).toBe(true);
    }
    // "Several" (好几个, 十几个), "almost" (几乎) and "how" with no degree ask for no quantity.
    for (const q of ['好几个服务都用 Redis', '十几个表要迁移', '几乎所有接口', 'how do we deploy', 'a long comment', '缓存用什么']) {
      expect(asksQuantity(q), q).toBe(false);
    }
  });

  it('a stated quantity: a number or a numeral with its unit, a weekday, a period, a frequency; not the digits of a name', () => {
    for (const t of [
      'Sessions expire after 30 minutes.',
      'timeout 200ms',
      '线程池固定 16',
      '网关跑三个实例',
      '发布只在周二',
      '短分支当天合并',
      '日志每天轮转',
      'Keys rotate weekly.',
      'one worker per queue',
      'Backups are kept for a month.',
      '审计日志永久保留',
    ]) {
      expect(statesQuantity(t), t).toBe(true);
    }
    for (const t of [
      'Deploy with K8s and Helm.',
      'Artifacts go to S3.',
      'REST paths start with /v1.',
      '统一使用 pnpm',
      'Logs are JSON lines.',
    ]) {
      expect(statesQuantity(t), t).toBe(false);
    }
  });

  it('a memory about the subject that gives no quantity does not answer a question for one; one that does still answers', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Session store in Redis', content: 'User sessions are kept in Redis, not in the database.' },
      { kind: 'project_decision', title: 'Audit log shipping', content: 'Audit logs are shipped to the SIEM.' },
      { kind: 'project_decision', title: '网关用 Envoy', content: '网关统一用 Envoy，配置走 xDS。' },
      { kind: 'project_decision', title: 'Worker pool', content: 'The export workers run as 4 processes per node.' },
      { kind: 'project_decision', title: '订单表归档', content: '订单表的冷数据每月归档到对象存储。' },
    ]);
    const memory = MemoryManager.open({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    const titles = (q: string): string[] => memory.search(handle, q).map((h) => h.title);
    // The subject is remembered, the quantity asked for is not.
    expect(titles('Redis sessions 保留多久')).toEqual([]);
    expect(titles('how long are audit logs kept')).toEqual([]);
    expect(titles('Envoy 网关跑几个副本')).toEqual([]);
    // The same subject asked about otherwise is still found, and so is a memory that states the quantity.
    expect(titles('Redis session store')).toEqual(['Session store in Redis']);
    expect(titles('how many export worker processes')).toEqual(['Worker pool']);
    expect(titles('订单表多久归档一次')).toEqual(['订单表归档']);
    memory.failTurn(handle);
    await memory.close();
  });
});
