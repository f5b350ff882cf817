import { describe, expect, it } from 'vitest';
import { judgeConfirmation } from '../../helpers/confirmation.js';

/**
 * The verdict on a decision from `proposalQuote` (default: the whole answer) confirmed by `quote` (default: the
 * whole reply), with the user's `next` turn when given.
 */
const judge = (answer: string, reply: string, options: { proposalQuote?: string; quote?: string; next?: string } = {}): string =>
  judgeConfirmation(answer, reply, { ask: '你看呢？', ...options });

const zh = '建议所有新接口的分页参数统一叫 page 和 page_size，要不要就这么定？';
const en = 'I suggest moving every cron job in this repo to a Kubernetes CronJob manifest. Should we do that?';
const mixed = '建议前端的 API client 统一用 openapi-typescript 生成，不再手写 types。定下来吗？';

describe('M-5.7 a yes weakened by a guess is held for the user; a put-off is no yes', () => {
  it('a guess or a grudging word beside the yes holds it (zh, en, mixed)', () => {
    expect(judge(zh, '好，应该没问题吧')).toBe('suggest:undecided');
    expect(judge(en, 'sure, probably fine')).toBe('suggest:undecided');
    expect(judge(en, 'ok I suppose')).toBe('suggest:undecided');
    expect(judge(mixed, 'ok 吧，大概可以')).toBe('suggest:undecided');
  });

  it('a put-off or a trial still refuses it, and a plain yes still accepts it', () => {
    expect(judge(zh, '好，不过我再想想')).toBe('refuse:undecided');
    expect(judge(en, 'ok, maybe later')).toBe('refuse:undecided');
    expect(judge(mixed, 'ok，等 review 完再说')).toBe('refuse:undecided');
    expect(judge(zh, '好，就这么定')).toBe('ok');
    expect(judge(en, 'sure, go with that')).toBe('ok');
  });
});

describe('M-5.7 a settling for now is held, and only for a proposal the next turn does not take back', () => {
  it('"暂时就这样吧", "fine for now": held for the user (zh, en, mixed)', () => {
    expect(judge(zh, '暂时就这样吧')).toBe('suggest:temporary');
    expect(judge(en, 'fine for now')).toBe('suggest:temporary');
    expect(judge(mixed, '先这么着吧，later 再看要不要改')).not.toBe('ok');
  });

  it('held only for a proposal, and void once the next turn takes it back', () => {
    const fact = '现在的分页参数有的叫 page，有的叫 pageNo，两种都在用。';
    expect(judge(fact, '暂时就这样吧')).toBe('refuse:confirmation_without_proposal');
    expect(judge(zh, '暂时就这样吧', { next: '等等，刚才那个不算，先别记。' })).toBe('refuse:retracted');
    expect(judge(en, 'ok for now', { next: 'actually scratch that, ops wants to keep systemd timers.' })).toBe('refuse:retracted');
  });
});

describe('M-5.3 a yes to an offer of work for now is a task, not a rule', () => {
  it('an offer of work now is refused; an offer of a standing way of working stays held', () => {
    const now = '要我现在把这两个 flaky 的 e2e 用例修一下吗？';
    expect(judge(now, '好，修吧')).toBe('refuse:one_off_request');
    const enNow = 'Want me to bump the lockfile right now?';
    expect(judge(enNow, 'sure')).toBe('refuse:one_off_request');
    const standing = 'Want me to add a pre-commit hook that runs ruff on every commit? I can set it up now.';
    expect(judge(standing, 'yep')).toBe('suggest:one_off_request');
  });
});

describe('M-5.5 a proposal made by a sentence that points back at the one before', () => {
  it('"Should …? I\'d recommend it.", "…吗？我建议这么做。": the pointed-at sentence is proposed (zh, en, mixed)', () => {
    const q = 'Should hidden resources return 404 instead of 403? I would recommend it.';
    expect(judge(q, 'yes', { proposalQuote: 'hidden resources return 404 instead of 403' })).toBe('ok');
    const z = '以后新建的表都加 created_at 和 updated_at 吗？我建议这么做。';
    expect(judge(z, '好', { proposalQuote: '以后新建的表都加 created_at 和 updated_at' })).toBe('ok');
    const m = 'service 之间的调用都加上 request id 透传？我建议这样。';
    expect(judge(m, 'ok', { proposalQuote: 'service 之间的调用都加上 request id 透传' })).toBe('ok');
  });

  it('a sentence after that proposes nothing, or proposes something of its own, does not', () => {
    const unsure = 'Should hidden resources return 404 instead of 403? I am not sure yet.';
    expect(judge(unsure, 'yes', { proposalQuote: 'hidden resources return 404 instead of 403' })).not.toBe('ok');
    const other = 'Should hidden resources return 404 instead of 403? I would recommend logging them first.';
    expect(judge(other, 'yes', { proposalQuote: 'hidden resources return 404 instead of 403' })).not.toBe('ok');
  });
});

describe('M-5.3 everyday words of confirming, and a put-off that ends its clause', () => {
  it('"好主意", "没毛病", "good idea" confirm a proposal', () => {
    expect(judge(zh, '好主意，就这么定')).toBe('ok');
    expect(judge(mixed, '没毛病，go')).toBe('ok');
    expect(judge(en, 'good idea, go with that')).toBe('ok');
  });

  it('"第二点回头再定": a part put off at the end of its clause is never taken', () => {
    const two = '两点建议：1) 日志统一 JSON 格式；2) trace id 写进每条日志。';
    expect(judge(two, '第一点可以，第二点回头再定', { proposalQuote: '日志统一 JSON 格式', quote: '第一点可以' })).toBe('ok');
    expect(judge(two, '第一点可以，第二点回头再定', { proposalQuote: 'trace id 写进每条日志', quote: '第一点可以' })).toBe(
      'refuse:undecided',
    );
  });
});
