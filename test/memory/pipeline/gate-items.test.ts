import { describe, expect, it } from 'vitest';
import { answeredItems, confirmedItems, itemNumberOf, listedItem, namesItem } from '../../../src/memory/pipeline/gate/items.js';
import { judgeConfirmation } from '../../helpers/confirmation.js';

/** The verdict on a decision from `proposalQuote` of `answer`, confirmed by `quote` of `reply`. */
const judge = (answer: string, reply: string, proposalQuote: string, quote = reply): string =>
  judgeConfirmation(answer, reply, { ask: '怎么定？', proposalQuote, quote });

const at = (text: string, quote: string): number => listedItem(text, text.indexOf(quote), text.indexOf(quote) + quote.length);

describe('M-5.5 one reader of list items: the labels of a proposal', () => {
  it('reads the number of a label opening the quote or standing right before it', () => {
    expect(at('两条建议：1) 日志走 Loki；2) 指标走 Prometheus。', '2) 指标走 Prometheus')).toBe(2);
    expect(at('两条建议：1) 日志走 Loki；2) 指标走 Prometheus。', '指标走 Prometheus')).toBe(2);
    expect(at('Options: (A) vendor the SDK; (B) pin it in go.mod.', 'pin it in go.mod')).toBe(2);
    expect(at('方案一：用 Kafka；方案二：用 NATS JetStream。', '用 NATS JetStream')).toBe(2);
    expect(at('Option C keeps the monolith for now.', 'Option C keeps the monolith for now')).toBe(3);
  });

  it('reads circled numbers and the Chinese enumerations 一是 / 其二 / 第三，', () => {
    expect(at('建议：① 升级到 Spring Boot 3；② 去掉 XML 配置。', '② 去掉 XML 配置')).toBe(2);
    expect(at('有两个办法：一是加读写分离；二是上 TiDB。', '上 TiDB')).toBe(2);
    expect(at('我的看法：其一，接口加版本号；其二，老接口保留半年。', '老接口保留半年')).toBe(2);
    expect(at('三点：第一，统一用 UTC；第二，时间戳存毫秒；第三，前端再转时区。', '前端再转时区')).toBe(3);
    expect(at('两种做法：第一种是按租户分库；第二种是共享库加 tenant_id 列。', '共享库加 tenant_id 列')).toBe(2);
    expect(
      at('Two ways: first, shard by region; second, keep one cluster with read replicas.', 'keep one cluster with read replicas'),
    ).toBe(2);
    // A numeral inside a word is no label.

    expect(at('建议统一是为了好维护，时区都用 UTC。', '时区都用 UTC')).toBe(0);
  });

  it('gives the same number to a label and an ordinal', () => {
    expect(['2', 'b', 'B', '二', '两', '②', 'second', '2nd', 'two'].map(itemNumberOf)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(itemNumberOf('最')).toBe(0);
  });
});

describe('M-5.5 one reader of list items: the items an answer names', () => {
  it('a confirmation names its items at its opening (zh, en, mixed)', () => {
    expect(confirmedItems('第二条可以')?.items).toEqual([2]);
    expect(confirmedItems('前三点都 OK')?.items).toEqual([1, 2, 3]);
    expect(confirmedItems("yep, let's go with D")?.items).toEqual([4]);
    expect(confirmedItems('the first two points sound right')?.items).toEqual([1, 2]);
    expect(confirmedItems('行，就选方案三')?.items).toEqual([3]);
    expect(confirmedItems('就用 C 方案')?.items).toEqual([3]);
    expect(confirmedItems('三条都照做')?.items).toEqual([1, 2, 3]);
    expect(confirmedItems('all four look right')?.items).toEqual([1, 2, 3, 4]);
    expect(confirmedItems('both, please')?.items).toEqual([1, 2]);
    // Not at the opening, or a count of times: no item.

    expect(confirmedItems('可以，不过第二条先别动')).toBeNull();
    expect(confirmedItems('第一次这样做')).toBeNull();
  });

  it('a clause of an answer by parts names its item anywhere, or by a bare label opening it', () => {
    expect(answeredItems('redis 那个也就是第三个先不做')?.items).toEqual([3]);
    expect(answeredItems('the second one not yet')?.items).toEqual([2]);
    expect(answeredItems('C 先不要')?.items).toEqual([3]);
    expect(answeredItems('yes to B')?.items).toEqual([2]);
    expect(answeredItems('2) ok')?.items).toEqual([2]);
    // An article is not a label.
    expect(answeredItems('yes to a retry budget')).toBeNull();
  });

  it('a sentence that proposes an item may name it by its ordinal, its option or its label', () => {
    expect(namesItem('我更倾向第二种。', 2, '二')).toBe(true);
    expect(namesItem("I'd go with option B.", 2, 'B')).toBe(true);
    expect(namesItem("I'd pick B here.", 2, 'B')).toBe(true);
    expect(namesItem("I'd go with the first one.", 2, 'B')).toBe(false);
  });
});

describe('M-5.5 / M-6.4 confirmations read through the one reader', () => {
  const circled = '两点建议：① Postgres 升到 16；② 连接池统一用 PgBouncer。';
  it('zh: an item under a circled label is bound to the ordinal that names it', () => {
    expect(judge(circled, '第二个行，第一个先不动', '② 连接池统一用 PgBouncer', '第二个行')).toBe('ok');
    expect(judge(circled, '第二个行，第一个先不动', '① Postgres 升到 16', '第二个行')).not.toBe('ok');
  });

  const en = 'Two suggestions: A) squash-merge every PR; B) require two reviewers on main.';
  it('en: an answer by parts that names the items by their bare labels', () => {
    expect(judge(en, 'A yes, B not yet', 'squash-merge every PR')).toBe('ok');
    expect(judge(en, 'A yes, B not yet', 'require two reviewers on main')).toBe('refuse:undecided');
  });

  const ordinals = 'A few options: first, keep Celery with Redis; second, move the workers to Temporal. I would pick the second.';
  it('en: a confirmation that names another item of the list does not confirm this one', () => {
    expect(judge(ordinals, 'ok, the second one', 'move the workers to Temporal')).toBe('ok');
    expect(judge(ordinals, 'ok, the second one', 'keep Celery with Redis')).toBe('refuse:assistant_source');
  });

  const all = 'Three recommendations: (1) run Renovate weekly; (2) pin GitHub Actions by SHA; (3) require signed tags.';
  it('en and zh: all of the items named by a count and a word of all', () => {
    expect(judge(all, 'all three make sense', 'pin GitHub Actions by SHA')).toBe('ok');
    const zhAll = '我建议两点：1) 镜像统一用 distroless；2) 镜像 tag 用 git sha。要不要采用？';
    expect(judge(zhAll, '两个都可以', '镜像 tag 用 git sha')).toBe('ok');
    expect(judge(zhAll, '两个都不要', '镜像 tag 用 git sha')).not.toBe('ok');
  });

  const mixed = '两个选项：1) 前端用 Vite 打包；2) SSR 换成 Next.js。我倾向第一个。';
  it('mixed: labels with brackets in the answer, and an item proposed by an ordinal in another sentence', () => {
    expect(judge(mixed, '1) ok，2) 先不要', '前端用 Vite 打包', '1) ok')).toBe('ok');
    expect(judge(mixed, '1) ok，2) 先不要', 'SSR 换成 Next.js', '1) ok')).not.toBe('ok');
  });
});
