import { describe, expect, it } from 'vitest';
import {
  hedgedAnswer,
  inCodeOrOutput,
  judgeConfirmation,
  judgeDiscussion,
  judgeStatement,
  stripMarkers,
} from '../../../src/memory/pipeline/gate/gate.js';
import { Phrases, Span } from '../../../src/memory/pipeline/gate/words.js';

type Kind = 'user_preference' | 'project_decision';
const pref = (text: string, quote = text): string => verdict(text, quote, 'user_preference');
const decision = (text: string, quote = text): string => verdict(text, quote, 'project_decision');
function verdict(text: string, quote: string, kind: Kind, next: string | null = null): string {
  const begin = text.indexOf(quote);
  if (begin < 0) throw new Error(`quote not in text: ${quote}`);
  return judgeStatement(text, begin, begin + quote.length, kind, next)?.reason ?? 'ok';
}

describe('M-5.6 Chinese markers match whole words (Intl.Segmenter)', () => {
  it('a marker inside another word is not the marker', () => {
    const acts = new Phrases({ zh: ['定了', '他'], en: [] });
    expect(acts.find(new Span('这个版本已经稳定了')).map((h) => h.text)).toEqual([]);
    expect(acts.find(new Span('其他人')).map((h) => h.text)).toEqual([]);
    expect(acts.find(new Span('方案定了')).map((h) => h.text)).toEqual(['定了']);
  });

  it('以后 in 以后端 and 示例 in 代码示例 are not speech acts; the same words as acts are', () => {
    expect(pref('以后端返回的 status 为准。')).toBe('no_speech_act');
    expect(pref('以后代码示例都用 TypeScript 写。')).toBe('ok');
    expect(pref('以后 sample data 一律放到 testdata/ 目录下。')).toBe('ok');
    expect(pref('这个函数的默认值是 30 秒。')).toBe('no_speech_act');
    expect(decision('我们用的是最终一致性模型。')).toBe('no_speech_act');
  });
});

describe('M-5.6 standing patterns need no fixed phrase', () => {
  it.each([
    '每次改完 migration 都提醒我同步更新 schema 文档。',
    '别再给我用 var 声明变量了。',
    '日志一律用结构化 JSON 输出。',
    '不管是 Java 还是 Go，错误信息都要带上下文。',
    'Never commit generated protobuf files again.',
    '从下个迭代开始，所有 PR 至少要一个 reviewer。',
  ])('%s', (text) => expect(pref(text)).toBe('ok'));

  it('labelled and imperative rulings are decisions; a one-off task is not', () => {
    expect(decision('Decision: every service in this repo logs in JSON.')).toBe('ok');
    expect(decision('结论：错误码统一放在 common 模块。')).toBe('ok');
    expect(decision('v1 的兼容层不用留了，直接删。')).toBe('ok');
    expect(decision('Drop support for IE11.')).toBe('ok');
    expect(decision('帮我把这个函数直接删掉。')).toBe('one_off_request');
    expect(decision('帮我把这个函数删掉。')).toBe('no_speech_act');
    expect(decision('Can you remove this line?')).not.toBe('ok');
  });
});

describe('M-5.6 the clause the quote stands in', () => {
  const text = '这次先不跑 e2e，赶时间。以后合并到 main 之前都要跑全量 e2e。';
  it('a temporary clause in another sentence does not veto a standing one', () => {
    expect(pref(text)).toBe('ok');
    expect(pref(text, '以后合并到 main 之前都要跑全量 e2e。')).toBe('ok');
    expect(pref(text, '这次先不跑 e2e，赶时间。')).toBe('temporary');
  });

  it('a fronted time scope covers its sentence; a condition inside a rule does not veto it', () => {
    expect(pref('For this answer only, by default skip the tests.')).toBe('temporary');
    expect(pref("By default, when you're unsure whether a change is safe, open a draft PR.")).toBe('ok');
    expect(pref('如果以后默认用中文回答，你觉得怎么样。')).toBe('hypothetical');
  });

  it('a retraction right after, in the turn or the next one, takes the statement back', () => {
    expect(pref('From now on use tabs. Actually, scratch that.')).toBe('retracted');
    expect(verdict('以后默认用 yarn。', '以后默认用 yarn。', 'user_preference', '算了，当我没说，还是 npm。')).toBe('retracted');
    expect(pref('算了，以后都用 pnpm 吧。')).toBe('ok');
  });

  it('questions of every shape are not acts', () => {
    expect(pref("what's the downside of always squashing merges")).toBe('question');
    expect(decision("I'm wondering whether we should adopt Nx.")).toBe('question');
    expect(decision('为什么我们最终采用了 Kafka')).toBe('question');
    expect(pref('以后回答都用中文，你觉得呢？')).toBe('question');
    expect(pref('以后解释 SQL 的时候顺便说一下索引有没有用上。')).toBe('ok');
  });

  it('speculation and undecided statements are not acts', () => {
    expect(decision('我猜以后我们迟早会换成 Bun。')).toBe('speculation');
    expect(decision("I bet we'll switch to Bun eventually.")).toBe('speculation');
    expect(decision('我们还没决定用不用 ruff。')).toBe('undecided');
  });
});

describe('M-5.6 who speaks and about what', () => {
  it('third parties, reported speech and other projects are not the user', () => {
    expect(decision('后端组已经决定把接口全部改成 gRPC。')).toBe('third_party');
    expect(decision('The platform team decided to adopt Istio.')).toBe('third_party');
    expect(pref('同事说以后都用 tabs。')).toBe('third_party');
    expect(pref('组长在群里说：\n以后所有 PR 都要关联 Jira。', '以后所有 PR 都要关联 Jira。')).toBe('third_party');
    expect(decision('去年做 CRM 的时候我们最终采用了 Elasticsearch。')).toBe('other_project');
    expect(decision('我们和后端组一起决定用 protobuf 做接口定义。')).toBe('ok');
  });

  it('quoted text in any quotation marks is not the user speaking', () => {
    expect(pref('他在 PR 里写了“以后都用 tabs”，你怎么看', '以后都用 tabs')).toBe('quoted_speech');
    expect(decision('文档里有一句「我们决定采用 Kafka」，这是哪年写的', '我们决定采用 Kafka')).toBe('quoted_speech');
    expect(pref('以后 commit message 都用 "feat:" 前缀。')).toBe('ok');
  });

  it('descriptions of software behaviour are not wishes', () => {
    expect(pref('这个测试在 CI 上总是报错。')).toBe('description');
    expect(pref('By default, Jackson fails on unknown properties.')).toBe('description');
    expect(pref('Kafka 默认保留 7 天的数据。')).toBe('description');
    expect(pref('I never got the hang of Gradle.')).toBe('description');
    expect(decision('默认情况下 Spring 会把这个 bean 设成单例。')).toBe('description');
    expect(pref('默认用 pnpm 安装依赖。')).toBe('ok');
    expect(pref('你以后总是先跑测试再改代码。')).toBe('ok');
  });
});

describe('M-5.6 text types: pasted material is not the user speaking', () => {
  it('logs, stack traces, git lines, diffs and code, with or without a fence', () => {
    const text = 'Exception in thread "main" java.lang.IllegalStateException: decided to use fallback\n\tat com.acme.App.main(App.java:12)';
    expect(inCodeOrOutput(text, text.indexOf('decided'))).toBe(true);
    expect(inCodeOrOutput('3f2a1b9 Decision: use pnpm everywhere', 8)).toBe(true);
    expect(inCodeOrOutput('diff --git a/x b/x\n+From now on, use tabs.', 20)).toBe(true);
    expect(inCodeOrOutput('2024-05-01 12:00:01 INFO always retry on 503', 25)).toBe(true);
    expect(inCodeOrOutput('const decision = "adopt redis";', 6)).toBe(true);
    const block = '日志如下：\nretry policy: always retry 3 times\n\n以后这种报错你直接告诉我原因。';
    expect(inCodeOrOutput(block, block.indexOf('retry policy'))).toBe(true);
    expect(inCodeOrOutput(block, block.indexOf('以后'))).toBe(false);
    expect(inCodeOrOutput('Error handling: from now on use Result types', 20)).toBe(false);
    expect(inCodeOrOutput('- 以后都用 pnpm', 2)).toBe(false);
  });
});

describe('M-5.3 / M-5.6 confirmations and discussion context', () => {
  it('a one-character confirmation confirms; a hedge, a no or a time scope does not', () => {
    expect(judgeConfirmation('好', 0, 1)).toEqual({ confirms: true });
    expect(judgeConfirmation('Sounds good, go with that.', 0, 11)).toEqual({ confirms: true });
    expect(judgeConfirmation('不行', 0, 2).confirms).toBe(false);
    expect(judgeConfirmation('No, not ok.', 8, 10)).toMatchObject({ confirms: false, problem: { reason: 'negated' } });
  });

  it('the formula of choosing ("X it is") names the choice and confirms it', () => {
    const all = (text: string): ReturnType<typeof judgeConfirmation> => judgeConfirmation(text, 0, text.length);
    expect(all('Tabs it is, go with that.')).toEqual({ confirms: true });
    expect(all('Postgres 16 it is 👍 do that.')).toEqual({ confirms: true });
    expect(all('Whatever it is, not now.').confirms).toBe(false);
    expect(judgeConfirmation('好的，我再想想。', 0, 2)).toMatchObject({ confirms: false, problem: { reason: 'undecided' } });
    expect(judgeConfirmation('好，这次先这样。', 0, 1)).toMatchObject({ confirms: false, problem: { reason: 'temporary' } });
  });

  it('a retraction after a topic of its own drops that thing, not the yes; a bare one takes the yes back', () => {
    expect(judgeConfirmation('OK 就按你说的用 pnpm，yarn 那个不用了。', 0, 2)).toEqual({ confirms: true });
    expect(judgeConfirmation('可以，照这个来，Jenkins 那套就不要了。', 0, 2)).toEqual({ confirms: true });
    expect(judgeConfirmation('好，那套不要了。', 0, 1)).toMatchObject({ confirms: false, problem: { reason: 'retracted' } });
    expect(judgeConfirmation('行，算了，不要了。', 0, 1)).toMatchObject({ confirms: false, problem: { reason: 'retracted' } });
  });

  it('a hedged yes as a clause of its own is a hedged answer (held); a put-off, a no or a question of its own is not', () => {
    expect(hedgedAnswer('嗯……或许吧，我想一想')).toBe(true);
    expect(hedgedAnswer('hmm, probably? let me think about it')).toBe(true);
    expect(hedgedAnswer('大概吧，I need to check with the team')).toBe(true);
    expect(hedgedAnswer('好的，我再想想。')).toBe(false);
    expect(hedgedAnswer('maybe later, let me ask the data team first')).toBe(false);
    expect(hedgedAnswer('hmm not sure. what does it break?')).toBe(false);
    expect(hedgedAnswer('也许吧？不过为什么不直接用 Redis？')).toBe(false);
    expect(hedgedAnswer('不，也许以后再说')).toBe(false);
    // A yes for a trial takes the proposal on for a while only.
    expect(hedgedAnswer('唔，行吧，先试试看')).toBe(true);
    expect(hedgedAnswer('嗯，试试看？')).toBe(true);
  });

  it('discussion context needs a user quote, and a code fact is not discussion', () => {
    const q = (text: string) => ({ text, begin: 0, end: text.length });
    expect(judgeDiscussion([])?.reason).toBe('assistant_only');
    expect(judgeDiscussion([q('项目现在用的是 Python 3.8。')])?.reason).toBe('code_fact');
    expect(judgeDiscussion([q('The service uses Redis for sessions.')])?.reason).toBe('code_fact');
    expect(judgeDiscussion([q('我们在比较方案 A 和方案 B，哪个更稳？')])).toBeNull();
  });

  it('the content anchor sees what a gap pattern is about, not its markers', () => {
    expect(stripMarkers('Never commit generated files again.')).toContain('commit generated files');
    expect(stripMarkers('每次改完 migration 都提醒我')).toContain('migration');
  });
});
