// Benchmark workload: loaded from --workload PATH (JSON or .json.gz), or generated with the same shape.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export function loadWorkload(path) {
  const raw = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return JSON.parse(text);
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZH = (
  '缓存 索引 分片 调度 重试 熔断 限流 回归 基线 快照 事务 提交 订阅 召回 摘要 布局 迁移 接口 汇总 解析 配额 签名 窗口 ' +
  '代理 隧道 值班 日历 并发 模板 载荷 负载 协议 渲染 证书 编译 层级 沙箱 节点 预览 镜像 合规 令牌 水位 指标 堆栈 拉取 批处理 ' +
  '前缀树 隔离 分词 增量 分支 工单 延迟 头部 迭代 边缘 容器 序列化 边车 命名 变基 队列 词法 策略 路由 恢复 性能 评审 精度 ' +
  '幂等 事件 日志 压缩 校验 同步 异步 备份 告警 权限 审计 追踪 灰度 发布 回滚 聚合 过滤 排序 分页 去重 加密 解密 哈希'
).split(' ');
const EN = (
  'pipeline planner retriever shard ledger registry tunnel percentile snapshot cache index eviction rotation stream ' +
  'compliance compiler proxy balancer asset scheduler hedging watermark slab journal overlap bandwidth offset policy ' +
  'restore partition packaging artifact stack diff archive branch cleanup encoding histogram template alert payload ' +
  'router consumer sandbox export node flag bundle report tunnel streaming tokenizer idempotent mirror fallback schema ' +
  'packet executor window layout memory gateway mesh merge span heartbeat kanban batch tenant draft migration quorum ' +
  'trace frame canary bloom style tier format counter envelope ranking discovery producer daemon callback btree region ' +
  'privacy service precision retry latency throughput sidecar checkpoint replica vector buffer socket cursor'
).split(' ');

const TAIL_ZH = '。';
const CLAUSE_PREFIX = {
  user_preference: '以后默认按这个偏好来：',
  project_decision: '项目决定采用这个方案：',
  discussion_context: '我们正在讨论这个话题：',
};

/** Generates a workload with the shape of shared/bench/workload.json.gz (sizes can be reduced). */
export function generateWorkload({ seed = 20261129, items = 100_000, sizes = [1000, 10_000, 100_000], queries = 1000 } = {}) {
  const rand = rng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const word = () => (rand() < 0.5 ? pick(ZH) : pick(EN));
  const words = (n, sep = ' ') => Array.from({ length: n }, word).join(sep);
  const sentence = (n) =>
    Array.from({ length: n }, () => word() + (rand() < 0.3 ? '，' : ' '))
      .join('')
      .trim();
  const admission = Array.from({ length: 2000 }, () => [sentence(30), sentence(120)]);
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const list = [];
  for (let k = 0; k < items; k += 1) {
    const title = `${cap(words(3 + Math.floor(rand() * 2)))} ${k.toString(36)}`;
    list.push([Math.floor(rand() * 3), title, [words(2, ''), words(2)], [word(), word(), word()], sentence(14), sentence(6)]);
  }
  const normalize = (s) =>
    s
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\p{P}\p{Z}\s]+/gu, ' ')
      .trim();
  const queriesBySize = {};
  for (const n of sizes) {
    const corpus = list.slice(0, n);
    const exact = Array.from({ length: queries }, () => pick(corpus)[1]);
    const substring = Array.from({ length: queries }, () => {
      const title = normalize(pick(corpus)[1]);
      const chars = Array.from(title);
      const start = 1 + Math.floor(rand() * Math.max(1, chars.length - 5));
      return (
        chars
          .slice(start, start + 4)
          .join('')
          .trim() || title
      );
    });
    const noHit = Array.from({ length: queries }, () => `zq${Math.floor(rand() * 1e9).toString(36)}x 无此${Math.floor(rand() * 1e6)}`);
    queriesBySize[n] = { exact_title: exact, substring, no_hit: noHit };
  }
  const reads = {};
  for (const n of sizes) reads[n] = Array.from({ length: queries }, () => Math.floor(rand() * n));
  return {
    version: 1,
    seed,
    generator: 'bench/workload.mjs',
    counts: { admission_turns: 2000, pipeline_turns: 1000, items, search_sizes: sizes, queries_per_class: queries },
    kind_codes: ['user_preference', 'project_decision', 'discussion_context'],
    clause_prefix: CLAUSE_PREFIX,
    base_ts: 1780000000.0,
    compaction: sentence(200).slice(0, 3000),
    admission_turns: admission,
    items: list,
    queries: queriesBySize,
    reads,
    tail: TAIL_ZH,
  };
}
