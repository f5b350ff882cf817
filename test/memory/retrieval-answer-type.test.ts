import { describe, expect, it } from 'vitest';
import { askedAnswerTypes, statedAnswerTypes } from '../../src/shared/search-answer-types.js';

const asksQuantity = (q: string): boolean => askedAnswerTypes(q).includes('quantity');
const statesQuantity = (t: string): boolean => statedAnswerTypes(t).includes('quantity');
const asksName = (q: string): boolean => askedAnswerTypes(q).includes('name');
const statesName = (t: string): boolean => statedAnswerTypes(t).includes('name');
import { withTitles } from '../helpers/seed-items.js';

describe('answer types: a question for a quantity or a name form needs an item that states one (M-7.7)', () => {
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
    await withTitles(
      [
        { kind: 'project_decision', title: 'Session store in Redis', content: 'User sessions are kept in Redis, not in the database.' },
        { kind: 'project_decision', title: 'Audit log shipping', content: 'Audit logs are shipped to the SIEM.' },
        { kind: 'project_decision', title: '网关用 Envoy', content: '网关统一用 Envoy，配置走 xDS。' },
        { kind: 'project_decision', title: 'Worker pool', content: 'The export workers run as 4 processes per node.' },
        { kind: 'project_decision', title: '订单表归档', content: '订单表的冷数据每月归档到对象存储。' },
      ],
      (titles) => {
        // The subject is remembered, the quantity asked for is not.
        expect(titles('Redis sessions 保留多久')).toEqual([]);
        expect(titles('how long are audit logs kept')).toEqual([]);
        expect(titles('Envoy 网关跑几个副本')).toEqual([]);
        // The same subject asked about otherwise is still found, and so is a memory that states the quantity.
        expect(titles('Redis session store')).toEqual(['Session store in Redis']);
        expect(titles('how many export worker processes')).toEqual(['Worker pool']);
        expect(titles('订单表多久归档一次')).toEqual(['订单表归档']);
      },
    );
  });

  it('questions for a name form: 命名, 名字, naming, named; not a name inside an identifier', () => {
    for (const q of ['topic 怎么命名', '表名大小写', '新服务的名字用什么前缀', 'how are S3 buckets named', 'naming of feature branches']) {
      expect(asksName(q), q).toBe(true);
    }
    for (const q of ['where is dag_name set', 'Redis 用来做什么', 'how are S3 buckets encrypted']) expect(asksName(q), q).toBe(false);
  });

  it('a stated name form: an identifier with separators, a small camelCase name, a code span, a case style or an affix', () => {
    for (const t of [
      'Topics look like orders.created.v1.',
      'Branches: feat/short-name',
      'Use traceId everywhere.',
      'Call it `billing`.',
      '表名统一小写加下划线',
      'Prefix every metric with the service name.',
    ]) {
      expect(statesName(t), t).toBe(true);
    }
    for (const t of ['Delayed messages go through RocketMQ.', 'Events use NATS JetStream.', '统一使用 pnpm'])
      expect(statesName(t), t).toBe(false);
  });

  it('a memory about the subject that shows no form of a name does not answer how it is named', async () => {
    await withTitles(
      [
        { kind: 'project_decision', title: 'Kafka for order events', content: 'Order events go through Kafka.' },
        {
          kind: 'project_decision',
          title: 'Metrics naming',
          content: 'Metric names start with the service, e.g. checkout_http_requests_total.',
        },
        { kind: 'project_decision', title: '消息队列用 Kafka', content: '服务间消息都走 Kafka。' },
      ],
      (titles) => {
        expect(titles('how are Kafka order topics named')).toEqual([]);
        expect(titles('Kafka 消息 topic 命名')).toEqual([]);
        expect(titles('Kafka order events')).toContain('Kafka for order events');
        expect(titles('how should checkout metrics be named')).toEqual(['Metrics naming']);
      },
    );
  });
});
