import { describe, expect, it } from 'vitest';
import { judgeStatement } from '../../../src/memory/pipeline/gate/gate.js';
import type { StatementKind } from '../../../src/memory/pipeline/gate/verdict.js';

/** The reason and verdict for a quote (null: it stands); `[[…]]` marks the quote when it is not the whole text. */
function judged(marked: string, kind: StatementKind = 'project_decision'): [string, string] | null {
  const m = /^(.*)\[\[(.*)\]\](.*)$/su.exec(marked);
  const text = m ? m[1]! + m[2]! + m[3]! : marked;
  const begin = m ? m[1]!.length : 0;
  const end = m ? begin + m[2]!.length : text.length;
  const p = judgeStatement(text, begin, end, kind);
  return p && [p.reason, p.verdict];
}

describe('M-5.6 a clause of this project after another project is this project’s act', () => {
  it('carrying the other way over to this project stands (zh, en, mixed)', () => {
    expect(judged('原来的项目里每个 handler 都先校验入参，我们这个项目也照这个来。')).toBeNull();
    expect(judged('At my previous company every service exposed a /healthz endpoint. Do the same here.')).toBeNull();
    expect(judged('上家公司所有 commit message 都按 Conventional Commits 写，this repo: same.')).toBeNull();
    expect(judged('In my other repo you always kept answers short; keep doing that in this one.', 'user_preference')).toBeNull();
  });

  it('a choice of this project’s own after the other one stands, judged alone', () => {
    expect(judged('老项目都用 Log4j，本项目换成 Logback。')).toBeNull();
    expect(judged('At my old job we hosted on Heroku. For this project we use Fly.io, that’s settled.')).toBeNull();
    expect(judged('之前那个项目用 Redux 管状态，这个仓库改用 Zustand。')).toBeNull();
  });

  it('asked or hedged, the carrying over is held; for now only, a provisional choice is held', () => {
    expect(judged('老东家都用 trunk-based 开发，这里也一样吗？')).toEqual(['other_project', 'suggest']);
    expect(judged('At my last job every endpoint had a rate limit. Same here, maybe?')).toEqual(['other_project', 'suggest']);
    expect(judged('以前的项目都用 CircleCI 跑构建，这个仓库暂时也一样。')).toEqual(['temporary', 'suggest']);
  });

  it('what the other project did stays refused when nothing is carried over or chosen for this one', () => {
    expect(judged('我另一个项目用 Temporal 编排工作流。')?.[1]).toBe('refuse');
    expect(judged('At my last job we wrote every service in Scala.')?.[1]).toBe('refuse');
    expect(judged('老项目那边一直用 SVN，跟这里没关系。')?.[1]).toBe('refuse');
    expect(judged('For the admin app we picked Vue; this repo is separate and nothing is decided yet.')?.[1]).toBe('refuse');
    expect(judged('上个项目的部署特别慢，这里也一样。')?.[1]).toBe('refuse');
    expect(judged('At my old job we used Gradle; here it doesn’t fit.')?.[1]).toBe('refuse');
  });

  it('the quote must hold this project’s clause, and for a carrying over the way it carries', () => {
    expect(judged('老项目都用 Log4j，[[本项目换成 Logback]]。')).toBeNull();
    expect(judged('[[老项目都用 Log4j]]，本项目换成 Logback。')?.[1]).toBe('refuse');
    expect(judged('原来的项目里每个 handler 都先校验入参，[[这里也照这个来]]。')?.[1]).toBe('refuse');
  });
});
