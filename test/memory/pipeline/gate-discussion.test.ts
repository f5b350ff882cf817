import { describe, expect, it } from 'vitest';
import { judgeDiscussion } from '../../../src/memory/pipeline/gate/gate.js';

/** The reason and verdict for a discussion quote; `[[…]]` marks the quote when it is not the whole text. */
function judged(marked: string): [string, string] | null {
  const m = /^(.*)\[\[(.*)\]\](.*)$/su.exec(marked);
  const text = m ? m[1]! + m[2]! + m[3]! : marked;
  const begin = m ? m[1]!.length : 0;
  const end = m ? begin + m[2]!.length : text.length;
  const p = judgeDiscussion([{ text, begin, end }]);
  return p && [p.reason, p.verdict];
}

describe('M-5.6 discussion context needs positive evidence of discussing', () => {
  it('a first person at work, an open choice, a question or a goal is discussion', () => {
    expect(judged('我们在排查订单导出偶发超时的问题')).toBeNull();
    expect(judged('缓存用 Caffeine 还是 Redis 还没定')).toBeNull();
    expect(judged('今天的目标是把 e2e 跑绿')).toBeNull();
  });

  it('fact shapes, wherever their subject stands, are refused', () => {
    expect(judged('查了一下，[[Nginx 的 worker_connections 设的是 4096]]，所以连接数上不去。')).toEqual(['code_fact', 'refuse']);
    expect(judged('The retry helper always waits 500ms before the first attempt.')).toEqual(['code_fact', 'refuse']);
    expect(judged('网关的超时写死了 5 秒。')).toEqual(['code_fact', 'refuse']);
  });

  it('a first person at work or a goal as the subject outweighs a fact shape; a state or a source remark does not', () => {
    expect(judged('我们这周在做权限模块的重构，今天先看登录接口的报错。')).toBeNull();
    expect(judged('当前的重点是把冷启动时间降到 2 秒以内。')).toBeNull();
    expect(judged('老板要求月底前上线，我们先把支付回调的超时查清楚')).toBeNull();
    expect(judged('这个 thread 我们专门聊日志采样率怎么定')).toBeNull();
    expect(judged('我们这边测试环境一直是单节点部署的。')).toEqual(['code_fact', 'refuse']);
    expect(judged('Nginx 的 keepalive_timeout 现在是 65，我刚看的。')).toEqual(['code_fact', 'refuse']);
    expect(judged('我们的网关在 k8s 上跑，默认 2 个副本。')).toEqual(['weak_evidence', 'suggest']);
  });

  it('a fact shape beside a word of discussion and no person at work is held, not accepted', () => {
    expect(judged('这个报错的问题是连接池没配最大空闲数')).toEqual(['weak_evidence', 'suggest']);
    // A progressive of discussing with its first person left out is someone at work.
    expect(judged('现在在排查导出接口偶发超时的问题，只有 iOS 上出现')).toBeNull();
    expect(judged('这个报错的问题是连接池没配，我们在看怎么改')).toBeNull();
  });

  it('quoted words, another party, an acknowledgement are not discussion; a bare statement is held', () => {
    expect(judged('网上有人说 “[[always memoize selectors]]”，真的吗？')).toEqual(['quoted_speech', 'refuse']);
    expect(judged('隔壁组那个 repo 默认用 Java 11，他们不打算升。')).toEqual(['other_project', 'refuse']);
    expect(judged('got it, thanks')).toEqual(['no_speech_act', 'refuse']);
    expect(judged('订单服务和库存服务之间走 MQ。')).toEqual(['weak_evidence', 'suggest']);
    // A first person alone is no work on the discussion ("那我去…" is the user's own errand).
    expect(judged('好，那我去清缓存。')).toEqual(['weak_evidence', 'suggest']);
  });
});
