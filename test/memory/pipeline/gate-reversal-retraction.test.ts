import { describe, expect, it } from 'vitest';
import { unsupportedText } from '../../../src/memory/pipeline/evidence.js';
import { judgeStatement } from '../../../src/memory/pipeline/gate/gate.js';

type Kind = 'user_preference' | 'project_decision';

/** The verdict of a quote of a turn: 'accept', or the reason and verdict of the problem. */
function judged(text: string, kind: Kind, quote: string = text, next: string | null = null): string {
  const begin = text.indexOf(quote);
  if (begin < 0) throw new Error(`quote not in ${text}`);
  const found = judgeStatement(text, begin, begin + quote.length, kind, next);
  return found === null ? 'accept' : `${found.reason}/${found.verdict}`;
}

describe('M-5.6 a retraction that names one part takes back that part only', () => {
  it('same turn, by the words of a part before a pointer: the other part stands, the named one does not', () => {
    const zh = '定了：前端构建用 Vite，CSS 统一换成 UnoCSS——UnoCSS 那条先不要了。';
    expect(judged(zh, 'project_decision', '前端构建用 Vite')).toBe('accept');
    expect(judged(zh, 'project_decision', 'CSS 统一换成 UnoCSS')).toBe('retracted/refuse');
    const en = 'From now on, name the file above each snippet, and add a short risk note. Actually scratch the risk note part.';
    expect(judged(en, 'user_preference', 'name the file above each snippet')).toBe('accept');
    expect(judged(en, 'user_preference', 'add a short risk note')).toBe('retracted/refuse');
  });

  it('same turn, by ordinal over a list: "keep the first, drop the second", "第二条撤回"', () => {
    const en = 'Going forward: 1) run the formatter before each commit, 2) squash every PR. Keep the first rule, drop the second.';
    expect(judged(en, 'project_decision', 'run the formatter before each commit')).toBe('accept');
    expect(judged(en, 'project_decision', 'squash every PR')).toBe('retracted/refuse');
    const zh = '以后 review 的时候：1. 先看接口变更；2. 顺便检查拼写。第二条撤回，拼写有工具管。';
    expect(judged(zh, 'user_preference', '先看接口变更')).not.toBe('retracted/refuse');
    expect(judged(zh, 'user_preference', '顺便检查拼写')).toBe('retracted/refuse');
  });

  it('the next turn names a part: a kept part stands, a dropped one is refused, a name no part has is held', () => {
    const text = 'Decision: staging deploys from main, and prod deploys go through Argo Rollouts.';
    const next = 'scratch the Argo part, not settled yet. the staging part stands.';
    expect(judged(text, 'project_decision', 'staging deploys from main', next)).toBe('accept');
    expect(judged(text, 'project_decision', 'prod deploys go through Argo Rollouts', next)).toBe('retracted/refuse');
    const mixed = '定了：日志走 Loki，告警接 PagerDuty。';
    expect(judged(mixed, 'project_decision', '日志走 Loki', '值班那条撤回，还没定；Loki 那条保留。')).toBe('accept');
    expect(judged(mixed, 'project_decision', '告警接 PagerDuty', '值班那条撤回，还没定。')).toBe('retracted/suggest');
  });

  it('a full retraction still takes back everything; a name pointing back names no part', () => {
    expect(judged('以后 SQL 关键字都大写。算了算了，当我没说。', 'user_preference', '以后 SQL 关键字都大写。')).toBe('retracted/refuse');
    expect(judged('以后每次都给我贴 benchmark 结果。', 'user_preference', undefined, '刚才那句收回，不用每次贴。')).toBe(
      'retracted/refuse',
    );
    expect(judged('Default to Kotlin for new Android modules.', 'project_decision', undefined, 'forget that last one.')).toBe(
      'retracted/refuse',
    );
  });
});

describe('M-5.6 an earlier choice judged, not made', () => {
  it('regret of an earlier choice is no decision, even with a reversal under a hedge', () => {
    expect(judged('当初把配置中心选成 Apollo，现在想想挺后悔的。', 'project_decision')).toBe('description/refuse');
    expect(judged('honestly I regret picking Gatsby for the docs site', 'project_decision')).toBe('description/refuse');
    expect(judged('honestly I regret picking Gatsby for the docs site, maybe we should move to Astro', 'project_decision')).not.toBe(
      'accept',
    );
  });

  it('a regret beside a decision of its own leaves the decision standing', () => {
    expect(judged('选 Apollo 有点后悔，决定迁到 Nacos。', 'project_decision')).toBe('accept');
    expect(judged('Picking Gatsby was a mistake; we decided to move the docs to Astro.', 'project_decision')).toBe('accept');
  });
});

describe('M-5.6 a complaint or ruling that only alludes to an earlier statement', () => {
  it('words that only point back at an earlier statement hold nothing to store', () => {
    expect(judged('就照之前讲的那样弄吧', 'project_decision')).toBe('no_speech_act/refuse');
    expect(judged("Let's just go with what we discussed before.", 'project_decision')).toBe('no_speech_act/refuse');
  });

  it('an earlier statement named, then a bare retraction, is taken back; a reference beside a rule of its own is not', () => {
    expect(judged('之前提过的回答末尾附参考链接，不要了。', 'user_preference')).toBe('retracted/refuse');
    expect(judged('按之前约定的来：分支名都用 feature/ 前缀。', 'project_decision')).toBe('accept');
  });

  it('an earlier decision named, with a request not to talk it over again, is no project ruling', () => {
    expect(judged('上回定的那个分库方案别再提了', 'project_decision')).toBe('description/refuse');
    expect(judged('we covered that logging decision last month, stop asking', 'project_decision')).toBe('description/refuse');
    expect(judged('结论：日志统一走 Loki，别再讨论了。', 'project_decision')).toBe('accept');
  });
});

describe('M-5.6 a rule said again', () => {
  it('a restatement lead makes a rule held only for want of a scope stand', () => {
    expect(judged('再强调一次：回答里的时间都写 UTC。', 'user_preference')).toBe('accept');
    expect(judged('again: no inline styles in the React components.', 'user_preference')).toBe('accept');
    expect(judged('like I said, 回答里的 shell 命令都给 PowerShell 版本。', 'user_preference')).toBe('accept');
  });

  it('what the lead introduces is still read: a question, a task for now', () => {
    expect(judged('Again: why does the nightly job time out?', 'user_preference')).not.toBe('accept');
    expect(judged('重申一下：这次先别动迁移脚本。', 'user_preference')).not.toBe('accept');
  });
});

describe('M-6.4 a memory does not state what its quote turns down', () => {
  it('the old side of a reversal, stated as if it stood, is refused', () => {
    expect(
      unsupportedText('Search API', 'The search API uses Elasticsearch.', [
        "We're not using Elasticsearch for the search API anymore, Meilisearch instead.",
      ]),
    ).toMatch(/turn down/u);
    expect(unsupportedText('缓存方案', '项目使用 Memcached 方案。', ['之前定的 Memcached 方案取消，改用 Redis。'])).toMatch(/turn down/u);
  });

  it('the new side, or the change itself, is backed', () => {
    const quotes = ["We're not using Elasticsearch for the search API anymore, Meilisearch instead."];
    expect(unsupportedText('Search API on Meilisearch', 'The search API uses Meilisearch instead of Elasticsearch.', quotes)).toBeNull();
    expect(unsupportedText('Search API', 'Meilisearch for the search API, not Elasticsearch.', quotes)).toBeNull();
    expect(unsupportedText('缓存方案', 'Memcached 方案取消，改用 Redis。', ['之前定的 Memcached 方案取消，改用 Redis。'])).toBeNull();
    expect(unsupportedText('v1 接口', 'v1 的接口下个版本下线。', ['v1 的接口下个版本直接下线，不留过渡期。'])).toBeNull();
  });
});
