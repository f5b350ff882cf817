import { describe, expect, it } from 'vitest';
import { boundConfirmation, isProposal } from '../../../src/memory/pipeline/gate/gate.js';

/** A proposal quoted whole. */
const whole = (text: string): { text: string; begin: number; end: number } => ({ text, begin: 0, end: text.length });
const bound = (user: string, proposalQuote: string): boolean => {
  const quote = user.split(/[，,]/u)[0]!;
  return boundConfirmation(user, 0, quote.length, whole(proposalQuote)) >= 0;
};

describe('M-5.3 a confirmation bound to the listed item it names', () => {
  it('binds an ordinal or an option label to the item that opens with it, and to no other', () => {
    expect(bound('第一条可以，第二条先别动', '1）把超时调到 30 秒')).toBe(true);
    expect(bound('第一条可以，第二条先别动', '2）把 runner 换成自托管的')).toBe(false);
    expect(bound('前两条可以', '2. 所有查询接口加分页')).toBe(true);
    expect(bound('前两条可以', '3. 换掉 ORM')).toBe(false);
    expect(bound('A.', 'Option A: keep errors typed to the boundary')).toBe(true);
    expect(bound('option B please', 'B) move the listing endpoints to GraphQL')).toBe(true);
  });

  it('the label may follow a confirmation word and a verb of choosing ("yep, let\'s do B", "行，就选 2")', () => {
    const all = (user: string, proposalQuote: string): boolean => boundConfirmation(user, 0, user.length, whole(proposalQuote)) >= 0;
    expect(all("yep, let's go with C.", '(C) keep one lockfile per app')).toBe(true);
    expect(all("yep, let's go with C.", '(A) one lockfile at the root')).toBe(false);
    expect(all('行，就选 2', '2）日志统一走 Loki')).toBe(true);
    expect(all('可以，第二条先别动', '2）日志统一走 Loki')).toBe(false);
  });

  it('a hedge or a question in the confirming clause, or no label in the proposal, binds nothing', () => {
    expect(bound('第一条可以吗？', '1）把超时调到 30 秒')).toBe(false);
    expect(bound('第一条再想想', '1）把超时调到 30 秒')).toBe(false);
    expect(bound('第一条可以', '把超时调到 30 秒')).toBe(false);
  });

  it('an item is proposed by the introduction of its list', () => {
    const answer = '两个建议：1. 把 open-in-view 关掉；2. 所有查询接口加分页，默认每页 20 条。';
    const begin = answer.indexOf('2.');
    expect(isProposal(answer, begin, answer.length, false)).toBe(true);
    // A label in brackets, named by a later sentence that proposes it.
    const options = 'Two ways: (A) copy the schema into each app, or (B) publish one shared package. I would go with B.';
    expect(isProposal(options, options.indexOf('(B)'), options.indexOf('. I'), false)).toBe(true);
    const plain = '目前有两处：1. open-in-view 开着；2. 查询接口没有分页。';
    expect(isProposal(plain, plain.indexOf('2.'), plain.length, false)).toBe(false);
  });

  it('an item quoted after its label is named by the ordinal of a later sentence that proposes it', () => {
    const answer = '两种做法：1) 每个服务自己管 migration；2) 统一放到 db-migrations 仓库。我推荐第二种，好追踪。';
    const quote = '统一放到 db-migrations 仓库';
    expect(isProposal(answer, answer.indexOf(quote), answer.indexOf(quote) + quote.length, false)).toBe(true);
    const en = 'Options: (A) keep the cron job; (B) move it to a queue worker. I would go with the second one.';
    const item = 'move it to a queue worker';
    expect(isProposal(en, en.indexOf(item), en.indexOf(item) + item.length, false)).toBe(true);
    // The first item is not the one named.
    const first = '每个服务自己管 migration';
    expect(isProposal(answer, answer.indexOf(first), answer.indexOf(first) + first.length, false)).toBe(false);
  });
});
