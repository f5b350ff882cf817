import { describe, expect, it } from 'vitest';
import { judgeStatement } from '../../../src/memory/pipeline/gate/gate.js';
import type { StatementKind } from '../../../src/memory/pipeline/gate/verdict.js';

/** The reason and verdict for a whole user turn quoted (null: it stands). */
function judged(text: string, kind: StatementKind = 'project_decision'): [string, string] | null {
  const p = judgeStatement(text, 0, text.length, kind);
  return p && [p.reason, p.verdict];
}

describe('M-5.6 "官方 / official" as an attribute of a thing, not a speaker', () => {
  it('a party word modifying a noun leaves the rule the user’s own (zh, mixed)', () => {
    expect(judged('官方 Node 镜像一律用 slim 版本。')).toBeNull();
    expect(judged('上游的 proto 文件一律不手改。')).toBeNull();
    expect(judged('官方的 clippy 规则全部打开，别自己关。')).toBeNull();
  });

  it('the noun phrase that says or advises is still reported; what an official thing does by default is held', () => {
    expect(judged('官方文档里说以后都用 ESM。')).toEqual(['third_party', 'suggest']);
    expect(judged('官方手册建议以后所有节点都开 NTP。')).toEqual(['third_party', 'suggest']);
    expect(judged('官方镜像默认都带 bash。')?.[1]).not.toBe('accept');
    expect(judged('官方说以后不再支持 Python 3.8。')).not.toBeNull();
  });
});

describe('M-5.6 conforming to a norm is a standing rule', () => {
  it('按 / 照 / follow a guide, a convention or a way of writing (zh, en, mixed)', () => {
    expect(judged('照官方 Helm 文档的写法来。', 'user_preference')).toBeNull();
    expect(judged('变量命名按 Google 的 style guide 来。')).toBeNull();
    expect(judged('Follow the official Terraform style conventions for module layout.')).toBeNull();
    expect(judged('We stick to the official Go code review comments guide in this repo.')).toBeNull();
  });

  it('one document in particular, done once, someone else’s way, a question or a failure is no rule', () => {
    expect(judged('照这份文档的写法来改一下。')).not.toBeNull();
    expect(judged('他们都按 Airbnb 的 style guide 写。')).not.toBeNull();
    expect(judged('我照官方文档的写法来的，还是编译不过。')).not.toBeNull();
    expect(judged('Should we follow the official Terraform style conventions?')).not.toBeNull();
  });
});
