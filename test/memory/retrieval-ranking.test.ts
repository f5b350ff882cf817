import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import {
  GENERIC_WEIGHT,
  GUESS_WEIGHT,
  UNKNOWN_PAIR_SHARE,
  UNKNOWN_RUN_SHARE,
  canonicalText,
  indexWords,
  phraseWords,
  stemWord,
  wordGroups,
} from '../../src/shared/search-words.js';
import { CUT_SHARE, specificity } from '../../src/shared/word-frequency.js';
import { rankedForms } from '../../src/memory/retrieval/terms.js';
import { seedItems } from '../helpers/seed-items.js';
import { tempRepo } from '../helpers/temp-repo.js';

function open(repo: string): { memory: MemoryManager; handle: ReturnType<MemoryManager['beginTurn']> } {
  const memory = MemoryManager.open({ repoRoot: repo });
  return { memory, handle: memory.beginTurn({ intent: 'general_chat', userText: 'probe' }) };
}

describe('search words (M-7.7)', () => {
  it('Chinese words from Intl.Segmenter, bigrams only where it finds single characters, no stop words', () => {
    expect(wordGroups('用户对分支命名有什么要求').map((g) => g.term)).toEqual(['分支', '命名']);
    // 缓存 is two single characters to the segmenter: their bigram stands for the word.
    expect(indexWords('缓存策略')).toEqual(['缓存', '=cache', '策略']);
    expect(indexWords('限流')).toEqual(['限流', '=rate_limit']);
    // Usual short names and Chinese names of the same concept meet: kube, 有效期, 编码器.
    expect(indexWords('kube')).toContain('=kubernetes');
    expect(indexWords('证书有效期')).toContain('=expiration');
    expect(indexWords('JSON 编码器')).toContain('=encoder');
  });

  it('identifiers split into their parts, each standing also for the joined form', () => {
    for (const id of ['rateLimiter', 'rate-limiter', 'rate_limiter', 'RateLimiter', 'rate.limiter']) {
      expect(
        wordGroups(id).map((g) => [g.term, g.alternatives]),
        id,
      ).toEqual([
        ['rat', ['ratelimiter', '=rate_limit']],
        ['limiter', ['ratelimiter', '=rate_limit']],
      ]);
    }
    expect(indexWords('HTTPServer')).toEqual(['http', 'httpserver', 'server', '=server']);
    expect(canonicalText('rateLimiter')).toBe(canonicalText('rate-limiter'));
  });

  it('questions ask: A-not-A forms and "how long / how many …" weigh nothing; general words weigh less', () => {
    const terms = (text: string): string[] => wordGroups(text).map((g) => g.term);
    expect(terms('价格能不能用 double 存')).toEqual(['价格', 'doubl']);
    expect(terms('要不要加索引')).toEqual(['索引']);
    expect(terms('可不可以用 Redis')).toEqual(['redis']);
    expect(terms('好不好')).toEqual([]);
    // Two single characters that make a stop word ask as the word does ("多|长" is 多长, "how long").
    expect(terms('回答要写多长')).toEqual(['回答']);
    // 不要 alone is a word of its own ("don't").
    expect(terms('不要用 Lombok')).toEqual(['不要', 'lombok']);
    expect(terms('how long is the access token valid')).toEqual(['access', 'token', 'valid']);
    expect(terms('how many retries')).toEqual(['retry']);
    // The unit after "how many / how much" asks with it, like the measure word of 几次.
    expect(terms('how many times does a failed task retry')).toEqual(['fail', 'task', 'retry']);
    expect(terms('how many days are logs kept')).toEqual(['log', 'kept']);
    expect(terms('the times of day')).toEqual(['tim', 'day']);
    expect(terms('a long comment')).toEqual(['long', 'comment']);
    // Words of asking after what was agreed before: only the subject is left.
    expect(terms('the Kafka setup we agreed on')).toEqual(['kafka', 'setup']);
    expect(terms('is Jenkins still running the nightly job')).toEqual(['jenkin', 'run', 'nightly', 'job']);
    // An outcome after a word of the past asks after it ("what did we conclude"); alone it is a subject.
    expect(terms('限流规则，上次的结论')).toEqual(['限流']);
    expect(terms('熔断，当时结论')).toEqual(['熔断']);
    expect(wordGroups('熔断，当时结论').flatMap((g) => g.alternatives)).not.toContain('=conclusion');
    expect(terms('先说结论')).toContain('结论');
    // The particle 过 after a verb of talking stands alone: the words after it are not cut ("讨论|过分|库…").
    expect(terms('讨论过分库分表吗')).toEqual(terms('讨论分库分表吗'));
    expect(terms('你之前说的缓存方案')).toEqual(['缓存', '方案']);
    expect(terms('what did we settle on for the queue')).toEqual(['queu']);
    // Asking after a time, a preference or what was said, like "when", "prefer", "said"; 以后 is "after" like 之后.
    expect(terms('什么时候打 tag')).toEqual(['tag']);
    expect(terms('消息队列倾向用哪个')).toEqual(['消息', '队列']);
    expect(terms('回滚之后怎么说的')).toEqual(['回滚']);
    expect(terms('合并以后要通知谁')).toEqual(['合并', '通知']);
    // 多个 and 同一 are determiners, like 几个 and "same".
    expect(terms('多个服务共用')).toEqual(['服务', '共用']);
    expect(terms('同一个接口')).toEqual(['接口']);
    // An English function word alone among Chinese words names something: the grammar around it is Chinese.
    expect(terms('能不能用 this 绑定')).toEqual(['this', '绑定']);
    expect(terms('返回值能是 null 吗')).toContain('null');
    expect(terms('use this for that')).toEqual([]);
    // The modal 该 ("should") asks like 应该: no bigram with its neighbour.
    expect(terms('日志该怎么打')).toEqual(['日志']);
    // The light verbs 放 and 走 standing alone say only "put" and "go by"; inside a word they are part of it.
    expect(terms('镜像文件放哪')).toEqual(['镜像', '文件']);
    expect(terms('发版走什么审批')).toEqual(terms('发版审批'));
    expect(terms('存放').length).toBe(1);
    expect(terms('错误日志怎么打')).toEqual(terms('错误日志'));
    expect(terms('打包').length).toBe(1);
    expect(terms('当时怎么定下来的日志格式')).toEqual(terms('日志格式'));
    const weight = (text: string): number[] => wordGroups(text).map((g) => g.weight);
    expect(weight('MySQL 版本')).toEqual([1, GENERIC_WEIGHT]);
    expect(weight('outbox pattern')).toEqual([1, GENERIC_WEIGHT]);
    expect(weight('which test framework')).toEqual([1, GENERIC_WEIGHT]);
    expect(weight('Jenkins 平台')).toEqual([1, GENERIC_WEIGHT]);
    expect(weight('a build platform')).toEqual([1, GENERIC_WEIGHT]);
    // Aspects a subject is measured or placed by are general words: "canary ratio", "配置位置".
    expect(weight('canary ratio')).toEqual([1, GENERIC_WEIGHT]);
    expect(weight('灰度比例')).toEqual([1, GENERIC_WEIGHT]);
    expect(weight('证书位置')).toEqual([1, GENERIC_WEIGHT]);
    // Inside an identifier a general word is part of a name.
    expect(weight('StyleSheet')).toEqual([1, 1]);
  });

  it('"几" and a measure word ask a number; determiners of quantity and lone localizers are no words', () => {
    const terms = (text: string): string[] => wordGroups(text).map((g) => g.term);
    expect(terms('缓存保留几天')).toEqual(['缓存', '保留']);
    expect(terms('失败重试几次')).toEqual(['失败', '重试']);
    // Degree and modal words are like "most, at least, must".
    expect(terms('分支最多保留几天')).toEqual(['分支', '保留']);
    expect(terms('合并前必须先评审')).toEqual(['合并', '评审']);
    expect(terms('代码至少要有评审')).toEqual(['代码', '评审']);
    // 都要 is made of function characters only: a function word.
    expect(terms('每个接口都要限流吗')).toEqual(['接口', '限流']);
    // A lone interrogative asks like 哪个: no pair is made with it.
    expect(terms('生产环境一周里哪几天可以发版')).toEqual(['生产', '环境', '一周', '发版']);
    expect(terms('密钥放哪')).not.toContain('放哪');
    // 里 and 时 alone are "in" and "when": no pair is made with them.
    expect(terms('配置里写死')).not.toContain('置里');
    expect(terms('部署时回滚')).toEqual(['部署', '回滚']);
    // 哪 and 一 with a measure word ask which one, like 哪个; 一次 and 好几 count, like 几个.
    expect(terms('校验放在哪一层')).toEqual(['校验']);
    expect(terms('哪一天上线')).toEqual(terms('上线'));
    expect(terms('一次改好几个模块')).toEqual(['改好', '模块']);
    // Inside a word they are the word's: 时间 and 前端 stay.
    expect(terms('前端时间格式')).toEqual(['前端', '时间', '格式']);
  });

  it('bigrams of single characters are guesses: half weight, and what no memory has weighs less or nothing', () => {
    const group = (text: string, term: string) => wordGroups(text).find((g) => g.term === term);
    // A run of single characters: which pairs are words is a guess, and a wrong guess is no subject.
    expect(group('改完代码先贴改动', '贴改')).toMatchObject({ guess: true, weight: GUESS_WEIGHT, unknownShare: UNKNOWN_RUN_SHARE });
    // A lone character paired with its neighbour word may be a compound no memory has (订单|号).
    expect(group('订单号生成规则', '单号')).toMatchObject({ paired: true, guess: true, unknownShare: UNKNOWN_PAIR_SHARE });
    // Two single characters alone between words are as often a word the segmenter does not know.
    expect(group('用飞书通知', '飞书')).toMatchObject({ guess: true, weight: GUESS_WEIGHT, unknownShare: UNKNOWN_PAIR_SHARE });
    // A lone character with only function characters beside it is paired all the same (支付|对|账).
    expect(wordGroups('支付对账').map((g) => g.term)).toEqual(['支付', '对账']);
  });

  it('a camelCase name with a part that is no word is searched whole: "MySQL" is not any SQL', () => {
    const words = (text: string): string[] =>
      rankedForms(text, { maxWords: 12, typos: false })
        .filter((f) => f[2] === 0)
        .map((f) => f[1]);
    expect(words('MySQL version')).toEqual(['mysql', 'version']);
    expect(words('iOS 推送证书')).toEqual(['ios', '推送', '证书']);
    // The item side keeps both forms, and the word said on its own is a word.
    expect(indexWords('MySQL')).toEqual(['sql', 'mysql']);
    expect(words('MySQL 和 SQL')).toEqual(['sql']);
    // With separators the parts are words of their own ("down" of down-migrations).
    expect(words('down-migrations')).toEqual(['migration']);
  });

  it('an identifier is one word of a phrase: its parts are no phrase', () => {
    expect(phraseWords('RocketMQ')).toEqual(['rocketmq']);
    expect(phraseWords('Argo CD')).toEqual(['argo', 'cd']);
    expect(phraseWords('rate-limiter config')).toEqual(['ratelimiter', 'config']);
  });

  it('a version number, an acronym plural and a compound ending in how it is done keep their words', () => {
    // A negation before a hyphen is a word of its own: "non-idempotent" holds the word idempotent.
    expect(wordGroups('non-idempotent calls').map((g) => g.term)).toEqual(['non', 'idempotent', 'call']);
    expect(wordGroups('NON-BLOCKING reads').map((g) => g.term)).toEqual(['non', 'block', 'read']);
    const terms = (text: string): string[] => wordGroups(text).map((g) => g.term);
    expect(terms('MySQL 5.7 or 8.0')).toEqual(['sql', '5.7', '8.0']);
    expect(terms('DAGs and APIs')).toEqual(['dag', 'api']);
    expect(wordGroups('TaskFlow-style').map((g) => [g.term, g.identifier])).toEqual([
      ['task', 'taskflow'],
      ['flow', 'taskflow'],
      ['styl', undefined],
    ]);
    // A participle after a hyphen says what is done with the name: the name alone meets a memory about it.
    expect(wordGroups('taskflow-decorated DAGs').map((g) => [g.term, g.identifier])).toEqual([
      ['taskflow', undefined],
      ['decorat', undefined],
      ['dag', undefined],
    ]);
    // In capitals, or a name of its own, it stays a part of the identifier.
    expect(wordGroups('rate-limited').map((g) => g.identifier)).toEqual([undefined, undefined]);
    expect(wordGroups('pre-commit').map((g) => g.identifier)).toEqual(['precommit', 'precommit']);
  });

  it('light English stemming: plurals, -ing, -ed; digits and short words untouched', () => {
    expect(['tests', 'testing', 'tested', 'test'].map(stemWord)).toEqual(['test', 'test', 'test', 'test']);
    expect(['caches', 'caching', 'cached', 'cache'].map(stemWord)).toEqual(['cach', 'cach', 'cach', 'cach']);
    expect(['dependencies', 'dependency'].map(stemWord)).toEqual(['dependency', 'dependency']);
    // -ied like -ies; British spellings meet American ones.
    expect(['retried', 'retries', 'retry'].map(stemWord)).toEqual(['retry', 'retry', 'retry']);
    const same = (a: string, b: string): void => expect(stemWord(a), `${a} / ${b}`).toBe(stemWord(b));
    same('vectorising', 'vectorizing');
    same('normalised', 'normalized');
    same('optimisation', 'optimization');
    same('behaviours', 'behavior');
    expect(['status', 'redis', 'k8s', 'go'].map(stemWord)).toEqual(['status', 'redis', 'k8s', 'go']);
    expect(['goes', 'heroes', 'echoes'].map(stemWord)).toEqual(['go', 'hero', 'echo']);
    // A suffix is stripped only from a stem that keeps a vowel: these are words, not spr-ing.
    expect(['spring', 'springs', 'string', 'strings', 'shred', 'bring'].map(stemWord)).toEqual([
      'spring',
      'spring',
      'string',
      'string',
      'shred',
      'bring',
    ]);
    expect(['sprinting', 'shredded'].map(stemWord)).toEqual(['sprint', 'shred']);
    expect(canonicalText('Integration tests')).toBe(canonicalText('integration test'));
  });
});

describe('ranked retrieval (M-7.7)', () => {
  const items = [
    {
      kind: 'project_decision' as const,
      title: '统一使用 pnpm 管理依赖',
      aliases: ['package manager', '包管理器'],
      content: '项目统一使用 pnpm。',
    },
    { kind: 'user_preference' as const, title: '分支命名用 feature/ 加工单号', content: '分支命名都用 feature/ 开头，后面跟工单号。' },
    {
      kind: 'project_decision' as const,
      title: 'Rate limiter in front of the login API',
      aliases: ['rate-limiter'],
      content: '5 requests per second.',
    },
    { kind: 'project_decision' as const, title: 'Integration tests use a real Postgres', content: 'No mocks in integration tests.' },
    {
      kind: 'project_decision' as const,
      title: 'Deploy with Kubernetes',
      keywords: ['kubernetes', 'helm'],
      content: 'Helm charts for production.',
    },
    { kind: 'project_decision' as const, title: 'MongoDB for the event store', content: 'The event store lives in MongoDB.' },
    { kind: 'project_decision' as const, title: 'Rapid release cadence', content: 'Ship every Tuesday.' },
  ];

  it('natural questions find the memory through its weighted words (phrase, question form)', async () => {
    const repo = tempRepo();
    seedItems(repo, items);
    const { memory, handle } = open(repo);
    const titles = (q: string): string[] => memory.search(handle, q).map((h) => h.title);
    expect(titles('which package manager should I use here')).toEqual(['统一使用 pnpm 管理依赖']);
    expect(titles('用户对分支命名有什么要求')).toEqual(['分支命名用 feature/ 加工单号']);
    expect(titles('rate limiter for the login api')[0]).toBe('Rate limiter in front of the login API');
    await memory.close();
  });

  it('variants meet: plural, identifier spelling; typos rank below exact words', async () => {
    const repo = tempRepo();
    seedItems(repo, items);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'rateLimiter').map((h) => [h.title, h.match])).toEqual([
      ['Rate limiter in front of the login API', 'exact'],
    ]);
    expect(memory.search(handle, 'integration test').map((h) => h.match)).toEqual(['prefix']);
    expect(memory.search(handle, 'kuberntes').map((h) => [h.title, h.match])).toEqual([['Deploy with Kubernetes', 'content']]);
    // Four letters is too short for a typo: no guess.
    expect(memory.search(handle, 'helx')).toEqual([]);
    await memory.close();
  });

  it('a misspelt word counts in full towards the share an item needs; it only ranks below the word spelt right', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Prometheus for service metrics', content: 'Every service exports Prometheus metrics.' },
      { kind: 'project_decision', title: 'Dashboards', content: 'Grafana dashboards live in the ops repo.' },
    ]);
    const { memory, handle } = open(repo);
    // Two of four words held, one of them misspelt: as many as with both spelt right.
    expect(memory.search(handle, 'promethues metrics cardinality budget').map((h) => h.title)).toEqual(['Prometheus for service metrics']);
    expect(memory.search(handle, 'prometheus metrics cardinality budget').map((h) => h.title)).toEqual(['Prometheus for service metrics']);
    await memory.close();
  });

  it('short words never match inside other words; a Latin substring starts a word', async () => {
    const repo = tempRepo();
    seedItems(repo, items);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'go')).toEqual([]);
    expect(memory.search(handle, 'api').map((h) => h.title)).toEqual(['Rate limiter in front of the login API']);
    expect(memory.search(handle, 'ngodb')).toEqual([]);
    expect(memory.search(handle, 'event sto').map((h) => [h.title, h.match])).toEqual([['MongoDB for the event store', 'substring']]);
    await memory.close();
  });

  it('M-7.5: one common word of a long query carries no hit, and unrelated queries return []', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      ...items,
      ...Array.from({ length: 8 }, (_, i) => ({
        kind: 'project_decision' as const,
        title: `Release checklist ${i}`,
        content: 'Every release has a checklist.',
      })),
    ]);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'how should the release notes of the mobile app be localized for japanese users')).toEqual([]);
    expect(memory.search(handle, 'graphql schema stitching')).toEqual([]);
    expect(memory.search(handle, '前端状态管理用什么')).toEqual([]);
    await memory.close();
  });

  it('the subject decides: a memory sharing only a general word with the query is no answer', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'URL versioning under /api/v1', aliases: ['API 版本'], content: 'Breaking changes get /api/v2.' },
      { kind: 'project_decision', title: '全局异常处理放在一个 ControllerAdvice', content: '异常统一处理。' },
      { kind: 'user_preference', title: '写测试默认用 pytest fixture', content: '写测试默认用 pytest fixture。' },
      { kind: 'project_decision', title: 'No SELECT * in models', content: 'Write the columns out explicitly.' },
    ]);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'Node 版本')).toEqual([]);
    expect(memory.search(handle, '时区处理')).toEqual([]);
    expect(memory.search(handle, 'how should I write tests').map((h) => h.title)).toEqual(['写测试默认用 pytest fixture']);
    // The general word still counts with the subject: both words of "API 版本" are the alias.
    expect(memory.search(handle, 'API 版本').map((h) => h.title)).toEqual(['URL versioning under /api/v1']);
    await memory.close();
  });

  it('a query of general words only has no subject: only a metadata term made of its words answers it', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'DAG ids', content: 'The naming convention for DAG ids is domain__purpose.' },
      { kind: 'project_decision', title: 'REST paths', content: '接口命名规范：资源名用复数。' },
      { kind: 'project_decision', title: 'Logging', content: 'Structured JSON logs.' },
    ]);
    const { memory, handle } = open(repo);
    // Every word of the query names an aspect, none a subject: sharing them is no answer.
    expect(memory.search(handle, 'naming convention')).toEqual([]);
    expect(memory.search(handle, '命名规范')).toEqual([]);
    expect(memory.search(handle, 'what format and style')).toEqual([]);
    // With a subject the same general words count again.
    expect(memory.search(handle, 'DAG naming convention').map((h) => h.title)).toEqual(['DAG ids']);
    expect(memory.search(handle, '接口命名规范').map((h) => h.title)).toEqual(['REST paths']);
    await memory.close();
    // A memory that has the words as a title, alias or keyword is about them.
    const named = tempRepo();
    seedItems(named, [
      { kind: 'project_decision', title: 'Branches', keywords: ['naming convention'], content: 'feature/<ticket>-<slug>.' },
      { kind: 'project_decision', title: 'DAG ids', content: 'The naming convention for DAG ids is domain__purpose.' },
    ]);
    const second = open(named);
    expect(second.memory.search(second.handle, 'naming convention').map((h) => h.title)).toEqual(['Branches']);
    expect(second.memory.search(second.handle, 'our naming convention please').map((h) => h.title)).toEqual(['Branches']);
    // … but not a query with a subject of its own: a memory named by its general words is not about Kotlin.
    expect(second.memory.search(second.handle, 'Kotlin naming convention')).toEqual([]);
    expect(second.memory.search(second.handle, '特征命名规范')).toEqual([]);
    await second.memory.close();
  });

  it('a word no memory has weighs like the rarest word: the subject is missing, yet the words held still carry a hit', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Product cache', content: 'Product pages are cached in Redis for ten minutes.' },
      { kind: 'project_decision', title: 'Sessions', content: 'Sessions live in Redis.' },
      { kind: 'project_decision', title: 'Kafka for order events', content: 'Order events go through Kafka.' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
      { kind: 'project_decision', title: 'Dates', content: 'Timestamps are UTC.' },
    ]);
    const { memory, handle } = open(repo);
    // "warmup" is in no memory; the two words the query holds besides it still find their memory.
    expect(memory.search(handle, 'product cache warmup').map((h) => h.title)).toEqual(['Product cache']);
    // One shared word and an aspect no memory has is a near miss: a hit on one word needs MIN_SINGLE_SHARE.
    expect(memory.search(handle, 'Kafka retention')).toEqual([]);
    // A word held by several memories weighs less than the unknown one: "failover" is the subject, none has it.
    expect(memory.search(handle, 'redis failover')).toEqual([]);
    // Two unknown words outweigh one known one.
    expect(memory.search(handle, 'kafka consumer lag')).toEqual([]);
    // An unknown word one typo away from a memory's word counts as that word.
    expect(memory.search(handle, 'Kafak events').map((h) => h.title)).toEqual(['Kafka for order events']);
    await memory.close();
  });

  it('the share an item needs falls with the length of the query: short near misses are refused, long questions answered', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Redis cluster for sessions', content: 'Sessions live in a Redis cluster.' },
      { kind: 'project_decision', title: 'Redis for the product cache', content: 'Product pages are cached in Redis.' },
      { kind: 'project_decision', title: 'Redis streams for events', content: 'Order events go through Redis streams.' },
      { kind: 'project_decision', title: 'Cluster autoscaling', content: 'The Kubernetes cluster scales on CPU.' },
      { kind: 'project_decision', title: 'Search cluster', content: 'Elasticsearch runs as its own cluster.' },
      { kind: 'project_decision', title: 'Checkout timeouts', content: 'The checkout calls the payment provider with a 3 s timeout.' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
      { kind: 'project_decision', title: 'Dates', content: 'Timestamps are UTC.' },
      { kind: 'project_decision', title: 'Logging', content: 'Logs are JSON lines.' },
      { kind: 'project_decision', title: 'Lint', content: 'ESLint runs in CI.' },
    ]);
    const { memory, handle } = open(repo);
    // Three words, two of them common in the Memory and one no memory has: half the weight, short of SHORT_QUERY_SHARE.
    expect(memory.search(handle, 'redis cluster failover')).toEqual([]);
    expect(memory.search(handle, 'redis cluster sessions').map((h) => h.title)).toEqual(['Redis cluster for sessions']);
    // A long question holding two of its words names them among words of its own: LONG_QUERY_SHARE of it suffices.
    expect(
      memory.search(handle, 'customers complain the checkout hangs forever whenever the payment gateway stalls').map((h) => h.title),
    ).toEqual(['Checkout timeouts']);
    await memory.close();
  });

  it('an unknown word weighs by how specific it is in the language: common words of asking do not sink a question', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Maven for the backend', content: 'The backend builds with Maven.' },
      { kind: 'project_decision', title: 'Sessions', content: 'Sessions live in Redis.' },
      { kind: 'project_decision', title: '订单表分库分表', content: '订单表按用户 ID 分库分表。' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
      { kind: 'project_decision', title: 'Dates', content: 'Timestamps are UTC.' },
    ]);
    const { memory, handle } = open(repo);
    expect(specificity('agreed')).toBeLessThan(0.6);
    expect(specificity('讨论')).toBeLessThan(0.5);
    // The Chinese list counts written text, where the words of software work are common: a Chinese word weighs on a
    // scale a Zipf step wider, so an aspect no memory has (保留, 升级) keeps most of its weight, asking words little.
    expect(specificity('保留')).toBeGreaterThan(0.6);
    expect(specificity('升级')).toBeGreaterThan(0.5);
    expect(specificity('突然')).toBeLessThan(0.4);
    expect(specificity('expiration')).toBe(1);
    // A name or a term no list has is fully specific.
    expect(specificity('flyway')).toBe(1);
    // A two-character word of the segmenter that the dictionary lacks is as often a cut across two words
    // ("密钥能不能写在 values.yaml 里": 写|在): it keeps half; a guessed bigram is judged as a guess, not as a cut.
    expect(specificity('写在')).toBe(CUT_SHARE);
    expect(specificity('写在', false)).toBe(1);
    expect(specificity('限流')).toBe(1);
    // "agreed", "front", "讨论" are in no memory and common: they say little about the subject.
    expect(memory.search(handle, 'what was agreed about the backend').map((h) => h.title)).toEqual(['Maven for the backend']);
    expect(memory.search(handle, '大家讨论过分库分表吗').map((h) => h.title)).toEqual(['订单表分库分表']);
    // A specific word no memory has still weighs fully: "expiration" is what no memory is about.
    expect(memory.search(handle, 'session expiration')).toEqual([]);
    await memory.close();
  });

  it('the Chinese words of one glossary form count as one word of the query (生产|环境 is production)', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'kubectl 在生产环境只读', content: '生产环境里 kubectl 只能只读。' },
      { kind: 'project_decision', title: 'Dates', content: 'Timestamps are UTC.' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
    ]);
    const { memory, handle } = open(repo);
    // The memory shares only "production" with the query: one word, so it needs MIN_SINGLE_SHARE.
    expect(memory.search(handle, '生产环境告警渠道')).toEqual([]);
    // With a second word of the query it is an answer.
    expect(memory.search(handle, '生产环境 kubectl 权限').map((h) => h.title)).toEqual(['kubectl 在生产环境只读']);
    await memory.close();
  });

  it('a guessed bigram a memory holds can be the subject of a query', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: '避免回表', content: '查询走覆盖索引，避免回表。' },
      { kind: 'project_decision', title: 'Dates', content: 'Timestamps are UTC.' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
    ]);
    const { memory, handle } = open(repo);
    // 回|表 is two single characters to the segmenter: a guess, yet the only word of the query.
    expect(wordGroups('有没有回表').map((g) => [g.term, g.guess])).toEqual([['回表', true]]);
    expect(memory.search(handle, '有没有回表').map((h) => h.title)).toEqual(['避免回表']);
    await memory.close();
  });

  it('a multi-word query matches a short metadata term whose words are all among its words', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      {
        kind: 'project_decision',
        title: 'Conventional Commits',
        keywords: ['commit message'],
        content: 'feat:, fix: and chore: prefixes.',
      },
      { kind: 'project_decision', title: 'Husky hooks', content: 'A pre-commit hook runs the linter on every commit.' },
    ]);
    const { memory, handle } = open(repo);
    // Four words, two of them unknown to the Memory: the keyword "commit message" still carries the hit.
    expect(memory.search(handle, 'how should I write commit messages in this repo').map((h) => h.title)).toEqual(['Conventional Commits']);
    // One word of a term is not the term: "commit" alone in a long question is not enough.
    expect(memory.search(handle, 'who reviews the commit before the nightly deployment freeze')).toEqual([]);
    await memory.close();
  });

  it('a one-name keyword is no phrase: a long question about another aspect of the name is no answer', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      {
        kind: 'project_decision',
        title: 'Order events go through RabbitMQ',
        keywords: ['RabbitMQ'],
        content: 'Order events use RabbitMQ.',
      },
      { kind: 'project_decision', title: 'Sessions', content: 'Sessions live in Redis.' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
    ]);
    const { memory, handle } = open(repo);
    expect(memory.search(handle, 'RabbitMQ dead letter exchange retention')).toEqual([]);
    expect(memory.search(handle, 'RabbitMQ').map((h) => h.title)).toEqual(['Order events go through RabbitMQ']);
    expect(memory.search(handle, 'RabbitMQ order events').map((h) => h.title)).toEqual(['Order events go through RabbitMQ']);
    await memory.close();
  });

  it('a wrong guess of a run of single characters does not sink the words the memory has', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'user_preference', title: '回答先给改动再解释', content: '改完代码先给改动，再解释原因。' },
      { kind: 'project_decision', title: 'Sessions', content: 'Sessions live in Redis.' },
      { kind: 'project_decision', title: 'Money', content: 'Amounts are BigDecimal.' },
      { kind: 'project_decision', title: '部署', content: '部署走 Helm。' },
    ]);
    const { memory, handle } = open(repo);
    // 贴改 is a pair across two words no memory has: it weighs nothing, 改动 and 解释 carry the hit.
    expect(memory.search(handle, '先贴改动再解释').map((h) => h.title)).toEqual(['回答先给改动再解释']);
    await memory.close();
  });

  it('an identifier is one name: all its parts or its joined form; a stem only starts a term as a whole word', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'React Navigation native stack', content: 'Screens use the native stack navigator.' },
      { kind: 'project_decision', title: 'Trace ids in every log line', keywords: ['trace id'] },
      { kind: 'project_decision', title: 'Track events with Segment' },
    ]);
    const { memory, handle } = open(repo);
    // "react" and "native" are in the first item, "svg" is not: the library named is not remembered.
    expect(memory.search(handle, 'react-native-svg')).toEqual([]);
    expect(memory.search(handle, 'reactNavigation').map((h) => h.title)).toEqual(['React Navigation native stack']);
    expect(memory.search(handle, 'traces').map((h) => h.title)).toEqual(['Trace ids in every log line']);
    await memory.close();
  });

  it('ranked hits come best first, and what scores far below the best is left out', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Logging format', content: 'Structured JSON logs with trace ids, shipped to Loki.' },
      { kind: 'project_decision', title: 'Tracing', content: 'Trace ids propagate through every service.' },
      { kind: 'project_decision', title: 'Unrelated', content: 'Colours of the dashboard.' },
    ]);
    const { memory, handle } = open(repo);
    const hits = memory.search(handle, 'structured json logs shipped to loki with trace ids');
    expect(hits.map((h) => [h.title, h.match])).toEqual([['Logging format', 'content']]);
    await memory.close();
  });
});
