import { describe, expect, it } from 'vitest';
import { answeredParts, isPlanProposal } from '../../../src/memory/pipeline/gate/partial.js';
import { judgeConfirmation } from '../../helpers/confirmation.js';

/** The verdict on a decision from `proposalQuote` of `answer`, confirmed by the whole of `reply`. */
const judge = (answer: string, reply: string, proposalQuote = answer): string =>
  judgeConfirmation(answer, reply, { ask: '怎么改？', proposalQuote });

describe('M-5.5 what counts as a proposal: a plan, or an item of a list of choices', () => {
  it('a plan put to the user is a proposal; a statement or a negated plan is not', () => {
    expect(isPlanProposal('那就把缓存换成 Redis Cluster，部署脚本一起调整。')).toBe(true);
    expect(isPlanProposal("OK, let's move the docs to Docusaurus.")).toBe(true);
    expect(isPlanProposal('部署的话，GitHub Actions 就够了。')).toBe(true);
    expect(isPlanProposal('现在的缓存是 Redis 单机。')).toBe(false);
    expect(isPlanProposal('不用改配置就行。')).toBe(false);
  });

  it('a confirmation after a plan confirms it (zh, en, mixed)', () => {
    expect(judge('那就用 Biome 替换 ESLint，pre-commit 也一起换。', '好，就这么定了')).toBe('ok');
    expect(judge("Then let's switch the queue to NATS.", 'ok, agreed')).toBe('ok');
    expect(judge('那就用 Turborepo 管 monorepo。', 'sounds good 就这么办')).toBe('ok');
    expect(judge('现在的缓存是 Redis 单机。', '好，就这么定了')).toBe('refuse:confirmation_without_proposal');
  });

  it('an item under "Two options:" or a word of proposing, its label right before the quote, is a proposal', () => {
    expect(judge('Two options: 1) keep Postgres 14; 2) upgrade to 16.', 'ok, go with that', 'keep Postgres 14')).toBe('ok');
    const plain = 'Two places: 1) the cron job; 2) the queue worker.';
    expect(judge(plain, 'ok, go with that', 'the cron job')).toBe('refuse:confirmation_without_proposal');
  });
});

describe('M-5.5 / M-6.4 an answer by parts: the part taken is accepted, never a part turned down or put off', () => {
  const zh = '三个建议：1. 日志统一用 pino；2. 监控接 Grafana；3. 告警走飞书。';
  it('zh: by ordinal', () => {
    expect(judge(zh, '第二个可以，第三个先别动。', '监控接 Grafana')).toBe('ok');
    expect(judge(zh, '第二个可以，第三个先别动。', '告警走飞书')).toBe('refuse:undecided');
    expect(judge(zh, '第一个不用，第二个行。', '日志统一用 pino')).toBe('refuse:retracted');
    expect(judge(zh, '第一个不用，第二个行。', '监控接 Grafana')).toBe('ok');
  });

  const en = 'My proposal: cache the tokens in Redis, and rotate the signing keys monthly.';
  it('en: by name, the deferral word scoping its own clause', () => {
    expect(judge(en, 'yes to caching the tokens, not the key rotation yet', 'cache the tokens in Redis')).toBe('ok');
    expect(judge(en, 'yes to caching the tokens, not the key rotation yet', 'rotate the signing keys monthly')).toBe('refuse:undecided');
    expect(judge(en, 'ok on the signing keys, no to Redis for the tokens', 'cache the tokens in Redis')).not.toBe('ok');
  });

  it('mixed, and by English ordinal', () => {
    const options = 'Two options: (1) 把 CI 换成 Buildkite; (2) 自建 runner.';
    expect(judge(options, 'first one ok, the second 先不要', '把 CI 换成 Buildkite')).toBe('ok');
    expect(judge(options, 'first one ok, the second 先不要', '自建 runner')).toBe('refuse:undecided');
  });

  it('a hesitant answer stays held or refused as before', () => {
    expect(judge(zh, '嗯……我再想想吧', '监控接 Grafana')).not.toBe('ok');
    expect(judge(en, 'maybe later', 'cache the tokens in Redis')).not.toBe('ok');
  });

  it('reads the parts of a turn only when one is taken and another is not', () => {
    expect(answeredParts('第一个可以，第二个也可以')).toEqual([]);
    expect(answeredParts('the first one yes, the second not yet').map((p) => [p.items, p.answer])).toEqual([
      [[1], 'yes'],
      [[2], 'later'],
    ]);
  });
});
