import { describe, expect, it } from 'vitest';
import { judgeStatement } from '../../../src/memory/pipeline/gate/gate.js';
import type { StatementKind } from '../../../src/memory/pipeline/gate/verdict.js';

/** The reason and verdict for a whole user turn quoted (null: it stands). */
function judged(text: string, kind: StatementKind = 'project_decision'): [string, string] | null {
  const p = judgeStatement(text, 0, text.length, kind);
  return p && [p.reason, p.verdict];
}

describe('M-5.6 another project as the model or the foil of a rule of this project', () => {
  it('a comparison part before or after the rule carries the other way over (zh, en, mixed)', () => {
    expect(judged('Same as in the checkout service: every migration ships with a rollback script.')).toBeNull();
    expect(judged('Like we did in the iOS app, every screen gets a snapshot test.')).toBeNull();
    expect(judged('跟 gateway 仓库一样，这里 PR 合并前必须过 e2e。')).toBeNull();
    expect(judged('这边也按老的 CRM 项目那样，提交信息统一写中文。')).toBeNull();
    expect(judged('错误码统一用五位数字，跟上个项目一样。')).toBeNull();
    expect(judged('Unlike the legacy monolith, we pin every dependency here.')).toBeNull();
  });

  it('the comparison word is no rule of its own: a clause stating no way of this project stays refused', () => {
    expect(judged('Same as in the checkout service, the staging database is tiny.')?.[1]).toBe('refuse');
    expect(judged('跟 gateway 仓库一样，这边的单测也跑得很慢。')?.[1]).toBe('refuse');
    expect(judged('跟上个项目一样，日志都在 /var/log/app 下面。')?.[1]).toBe('refuse');
    expect(judged('Like in the old monolith, we had three outages a month.')?.[1]).toBe('refuse');
  });

  it('what another project does, compared or not, is not this project’s rule when asked', () => {
    expect(judged('跟 gateway 仓库一样，这里也必须过 e2e 吗？')).not.toBeNull();
  });
});

describe('M-5.6 a refusal to carry another project’s way over is no rule of this project', () => {
  it('the refusal alone is refused as another project’s way (zh, en)', () => {
    expect(judged('上个项目每个模块都配一个 Makefile，这边别照搬。')).toEqual(['other_project', 'refuse']);
    expect(judged('At my last job we tagged every release by hand, but don’t carry that over here.')).toEqual(['other_project', 'refuse']);
  });

  it('a norm of another project kept on or brought over here is carried (zh, mixed)', () => {
    expect(judged('老项目那套接口命名约定，这边继续用。')).toBeNull();
    expect(judged('上个项目的 commitlint 配置直接拿过来用。')).toBeNull();
    expect(judged('上个项目的 commitlint 配置别拿过来用。')?.[1]).toBe('refuse');
    expect(judged('上个项目的 CI 很慢，这边继续用。')?.[1]).toBe('refuse');
  });

  it('a choice of this project after the refusal is its act (mixed)', () => {
    expect(judged('上个项目 lint 用 tslint，这个仓库别照搬，统一用 eslint flat config。')).toBeNull();
  });
});

describe('M-5.6 / M-5.7 a party’s word the user takes up is the user’s decision', () => {
  it('a clause pointing back at what was reported, or echoing its verb, takes it up (zh, en, mixed)', () => {
    expect(judged('Vue 官方风格指南说组件名要多个单词，那我们就这么改。')).toBeNull();
    expect(judged('The official Go blog says to wrap errors with %w, so we’ll do that.')).toBeNull();
    expect(judged('官方说要升级到 Spring Boot 3，那我们就升。')).toBeNull();
  });

  it('the report alone stays someone else’s; a hedged taking up is held; another verb echoes nothing', () => {
    expect(judged('官方说要升级到 Spring Boot 3。')).not.toBeNull();
    expect(judged('The official Go blog says to wrap errors with %w.')).not.toBeNull();
    expect(judged('Vue 官方风格指南说组件名要多个单词，那我们也这么改吧？')).toEqual(['third_party', 'suggest']);
    expect(judged('官方说 Java 8 明年停止支持，那我们就升。')).not.toBeNull();
  });
});
