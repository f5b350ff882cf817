import { describe, expect, it } from 'vitest';
import { type AnswerType, askedAnswerTypes, statedAnswerTypes } from '../../src/shared/search-answer-types.js';
import { withTitles } from '../helpers/seed-items.js';

const asks = (type: AnswerType, q: string): boolean => askedAnswerTypes(q).includes(type);
const states = (type: AnswerType, t: string): boolean => statedAnswerTypes(t).includes(type);

describe('answer kinds: a question for a time, a reason, a person or steps needs an item that states one (M-7.7)', () => {
  it('questions for a time or a condition: 什么时候, 何时, 哪天, "when" opening a question; not "when" inside a clause', () => {
    for (const q of [
      '发布分支什么时候拉',
      '证书何时过期',
      '哪天冻结代码',
      'when do we cut the release branch?',
      'When should tokens be rotated',
    ])
      expect(asks('time', q), q).toBe(true);
    for (const q of ['what to do when the build breaks', 'release branch naming', '发布分支怎么命名'])
      expect(asks('time', q), q).toBe(false);
  });

  it('a stated time: a date, a weekday, a relative day, a number of a unit of time, an order of events, a condition', () => {
    for (const t of [
      'Release branches are cut every other Thursday.',
      '代码冻结在 3 月 20 日',
      'Hotfixes wait two days before they ship.',
      '合并前必须跑完端到端测试',
      'Tokens are rotated after each incident.',
      'Only for read-only endpoints.',
      '超过 50 万行的表才分区',
    ]) {
      expect(states('time', t), t).toBe(true);
    }
    for (const t of ['Release branches are named release/x.y.', 'Backend is Go with Postgres 16.', '统一使用 pnpm'])
      expect(states('time', t), t).toBe(false);
  });

  it('questions for a reason: 为什么, 为啥, 原因, why, the rationale', () => {
    for (const q of ['为什么用 NATS', '选 Bun 的原因', 'why is the cache in front of the search index', 'rationale for monorepo'])
      expect(asks('reason', q), q).toBe(true);
    for (const q of ['NATS 的 subject 怎么命名', 'which queue do we use']) expect(asks('reason', q), q).toBe(false);
  });

  it('a stated reason: a clause of cause or purpose, a comparison, the option chosen against, the search for a cause', () => {
    for (const t of [
      'Sessions live in Redis because every pod must see them.',
      '用 NATS，因为运维成本低',
      'Bun over npm: installs are faster.',
      '用 Caddy 而不是 Nginx',
      'Currently investigating the nightly memory spike.',
    ]) {
      expect(states('reason', t), t).toBe(true);
    }
    for (const t of ['Sessions live in Redis.', '消息统一走 NATS。']) expect(states('reason', t), t).toBe(false);
  });

  it('questions for a person: 谁, 哪位, 负责人, "who" opening a question or asking with a verb', () => {
    for (const q of ['数据库变更找谁审批', '发布负责人是哪位', 'who approves schema changes?', 'and who owns the billing service'])
      expect(asks('person', q), q).toBe(true);
    for (const q of ['how do services learn who the caller is', 'billing service owner field']) expect(asks('person', q), q).toBe(false);
  });

  it('a stated person or role: a handle, a role or a team, a name after a verb of handing over, a name of address', () => {
    for (const t of [
      'Schema changes need a review from the DBA.',
      '@lena signs the releases',
      'Ask Priya before touching billing.',
      '发布由小周负责',
    ])
      expect(states('person', t), t).toBe(true);
    for (const t of ['Schema changes go through Flyway.', 'Releases are signed in CI.']) expect(states('person', t), t).toBe(false);
  });

  it('questions for steps: 步骤, steps, procedure, runbook; not 流程 or 清单 as the name of a thing', () => {
    for (const q of ['Android 发版步骤', 'steps to rotate the signing key', 'failover runbook']) expect(asks('steps', q), q).toBe(true);
    for (const q of ['退款流程用什么引擎', '部署清单放哪', 'signing key storage']) expect(asks('steps', q), q).toBe(false);
  });

  it('stated steps: a numbered list, words that order actions, a command', () => {
    for (const t of [
      'Rotate it: 1. create the new key 2. deploy 3. revoke the old one',
      '先在 staging 跑一遍，然后再切生产流量。',
      'Run `make rotate-keys`, then restart the workers.',
    ]) {
      expect(states('steps', t), t).toBe(true);
    }
    for (const t of ['The signing key lives in the vault.', 'Backend is Go with Postgres 16.', 'Services run on Node 20.'])
      expect(states('steps', t), t).toBe(false);
  });

  it('the name of a measure asks for its value: size, frequency, 大小, 体积, 频率; not 大小写 or 频率控制', () => {
    for (const q of ['upload size for avatars', 'crawler frequency', '安装包体积', '头像大小', '同步频率'])
      expect(asks('quantity', q), q).toBe(true);
    for (const q of ['表名大小写', '频率控制放在哪一层']) expect(asks('quantity', q), q).toBe(false);
  });

  it('a memory about the subject that states no answer of the kind asked does not answer; one that does still answers', async () => {
    await withTitles(
      [
        { kind: 'project_decision', title: 'Release branches', content: 'Release branches are named release/x.y.' },
        { kind: 'project_decision', title: 'Session store', content: 'User sessions live in Valkey.' },
        { kind: 'project_decision', title: 'Schema changes', content: 'Schema changes go through Liquibase changesets.' },
        { kind: 'project_decision', title: 'Signing key', content: 'The APK signing key lives in the team vault.' },
        { kind: 'project_decision', title: '头像上传', content: '头像上传走对象存储，前端直传。' },
        { kind: 'project_decision', title: 'Nightly export', content: 'The nightly export starts at 02:00 UTC, after the backup.' },
        { kind: 'project_decision', title: '消息队列选型', content: '消息队列用 NATS，因为运维成本比 Kafka 低。' },
      ],
      (titles) => {
        // The subject is remembered; the kind of answer asked for is not.
        expect(titles('when do we cut the release branches?')).toEqual([]);
        expect(titles('why are sessions kept in Valkey')).toEqual([]);
        expect(titles('who approves Liquibase schema changes?')).toEqual([]);
        expect(titles('APK signing key rotation steps')).toEqual([]);
        expect(titles('头像上传大小')).toEqual([]);
        // The same subjects asked about otherwise are still found, and so are memories that state the answer.
        expect(titles('release branches')).toEqual(['Release branches']);
        expect(titles('Valkey sessions')).toEqual(['Session store']);
        expect(titles('when does the nightly export run?')).toEqual(['Nightly export']);
        expect(titles('消息队列为什么用 NATS')).toEqual(['消息队列选型']);
      },
    );
  });
});
