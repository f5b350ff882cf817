#!/usr/bin/env node
// npm run bench [-- --workload PATH]
//   [--only cli,open,turns,search,read,projection,routing,notices,mcp,pipeline,pipeline-size,export,import,validation,quote,drain]
//   [--max-items N] [--export-mb MB] [--import-mb MB] [--out FILE]
// Prints a table and writes JSON. Without --workload it generates a workload of the same shape.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { MemoryManager, ScriptedLlm } from '../dist/index.js';
import { cliStart, promptAtScale, statusAtScale } from './cli-start.mjs';
import { fmt, measure, measureAsync, percentile } from './stats.mjs';
import { freshRepo, itemId, seedItems, seedTurns } from './seed.mjs';
import { endsComplete, measureExport, seedLargeRepo } from './export.mjs';
import { importRound } from './import.mjs';
import { validationInputs } from './validation.mjs';
import { drainRows, loopRows, quoteRows } from './bounded-work.mjs';
import { generateWorkload, loadWorkload } from './workload.mjs';
import { rankedQueries } from './retrieval-queries.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const only = new Set(
  option(
    'only',
    'cli,open,turns,search,read,projection,routing,notices,mcp,pipeline,pipeline-size,export,import,validation,quote,drain',
  ).split(','),
);
const maxItems = Number(option('max-items', '100000'));
const workloadPath = option('workload', null);

const log = (...m) => console.error(...m);
log(workloadPath ? `loading workload ${workloadPath}` : 'generating workload (seed 20261129)');
const workload = workloadPath
  ? loadWorkload(workloadPath)
  : generateWorkload({ items: maxItems, sizes: [1000, 10_000, 100_000].filter((n) => n <= maxItems) });
const sizes = (workload.counts.search_sizes ?? [1000, 10_000, 100_000]).filter((n) => n <= maxItems);
const results = { workload: workloadPath ?? 'generated', node: process.version, date: new Date().toISOString(), rows: [] };
const row = (operation, stats, extra = {}) => {
  results.rows.push({ operation, ...stats, ...extra });
  log(
    `  ${operation.padEnd(52)} p50 ${fmt(stats.p50).padStart(9)} µs   p95 ${fmt(stats.p95).padStart(9)} µs${stats.p99 !== undefined ? `   p99 ${fmt(stats.p99).padStart(9)} µs` : ''}`,
  );
};

const REFERENCE = {
  'cold open + verify, 10k turns': [91_029, 92_889],
  'cold open + verify, 100k items': [6_707_104, 6_749_887],
  'beginTurn + completeTurn': [3_431, 3_751],
  'history + routing context (1k items)': [2_494, 2_545],
  'search 1000 exact_title': [5_236, 5_331],
  'search 1000 substring': [5_080, 5_225],
  'search 1000 no_hit': [4_953, 5_023],
  'search 10000 exact_title': [50_315, 51_747],
  'search 10000 substring': [47_328, 49_955],
  'search 10000 no_hit': [48_159, 49_307],
  'search 100000 exact_title': [498_440, 514_189],
  'search 100000 substring': [479_734, 492_429],
  'search 100000 no_hit': [468_575, 478_194],
  // Targets, not measurements (issue 23): the ranked stage at 10k and 100k items.
  'search 10000 phrase': [null, 1_000],
  'search 10000 typo': [null, 1_000],
  'search 100000 phrase': [null, 2_000],
  'search 100000 typo': [null, 2_000],
  read: [1_722, 1_903],
  // Target, not a measurement: M-5.6 asks for at most 0.2 ms per candidate at p95.
  'validation per candidate (gate corpus)': [null, 200],
  // Target (issue "Safe hands"): 1M characters of blank lines and one quote validate in under 1 s.
  'validate 1 candidate, 1,000,000 blank-line chars': [null, 1_000_000],
};

/**
 * Cold open of an existing database, two ways: with the full physical check (the stamp of the last verified
 * clean close removed first, as after a crash or an outside write), and after a verified clean close (the
 * physical checks skipped, the catalog/meta/thread checks kept).
 */
async function coldOpen(dir, label, repeats = 15) {
  const stamp = join(dir, '.autopatch-j', 'memory.db-verified');
  for (const mode of ['full', 'clean']) {
    const times = [];
    for (let i = 0; i < repeats + 2; i += 1) {
      if (mode === 'full') rmSync(stamp, { force: true });
      const start = performance.now();
      const memory = MemoryManager.open({ repoRoot: dir });
      const elapsed = (performance.now() - start) * 1000;
      if (memory.status().health !== 'healthy') throw new Error(`${label}: ${memory.status().degradedReason}`);
      await memory.close();
      if (i >= 2) times.push(elapsed);
    }
    times.sort((a, b) => a - b);
    row(mode === 'full' ? `cold open + verify, ${label}` : `cold open after a clean close, ${label}`, {
      n: times.length,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
    });
  }
}

if (only.has('cli')) {
  log('CLI start (wall time of a whole process)');
  await cliStart(row, workload);
}

if (only.has('open')) {
  log('cold open + full verification');
  for (const n of [0, 10_000, 100_000]) {
    const repo = await seedTurns(workload, n, `open${n}`);
    await coldOpen(repo.dir, `${n === 0 ? '0' : `${n / 1000}k`} turns`);
    repo.remove();
  }
}

if (only.has('turns')) {
  log('beginTurn + completeTurn (synchronous=FULL)');
  const repo = freshRepo('turns');
  await repo.close();
  const memory = MemoryManager.open({ repoRoot: repo.dir });
  const turns = workload.admission_turns.slice(0, 2000);
  row(
    'beginTurn + completeTurn',
    measure(turns, ([user, assistant]) => {
      const handle = memory.beginTurn({ intent: 'general_chat', userText: user });
      memory.completeTurn(handle, assistant);
    }),
  );
  await memory.close();
  repo.remove();
}

const itemRepos = new Map();
async function itemsRepo(n) {
  if (!itemRepos.has(n)) {
    const start = performance.now();
    itemRepos.set(n, await seedItems(workload, n, `items${n}`));
    log(`  (seeded ${n} items in ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  }
  return itemRepos.get(n);
}

if (only.has('search') || only.has('read') || only.has('routing') || only.has('notices')) {
  for (const n of sizes) {
    log(`search and read, ${n} items`);
    const repo = await itemsRepo(n);
    if (n === 100_000 && only.has('open')) await coldOpen(repo.dir, '100k items', 5);
    if (n === 100_000 && only.has('cli')) {
      statusAtScale(row, repo.dir, '100k items');
      promptAtScale(row, repo.dir, '100k items');
    }
    const memory = MemoryManager.open({ repoRoot: repo.dir });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'bench' });
    const ranked = rankedQueries(workload, n, 1000);
    if (only.has('search')) {
      // phrase and typo exercise the ranked stage (issue 23): every query reaches the third statement; question asks for
      // a kind of answer, so its third statement also checks the answer rows of the candidates (M-7.7).
      for (const cls of ['exact_title', 'substring', 'no_hit', 'phrase', 'typo', 'question']) {
        const queries = workload.queries[n][cls] ?? ranked[cls];
        let hits = 0;
        let empty = 0;
        const stats = measure(queries, (q) => {
          const found = memory.search(handle, q);
          hits += found.length;
          if (found.length === 0) empty += 1;
        });
        row(`search ${n} ${cls}`, stats, { meanHits: hits / (queries.length + 20), emptyResults: empty });
      }
    }
    if (only.has('routing')) {
      // M-8.3: more items than the routing budget holds, so every request runs the relevance selection.
      const handles = ranked.request.slice(0, 300).map((userText) => memory.beginTurn({ intent: 'general_chat', userText }));
      let shown = 0;
      row(
        `routing selection ${n}`,
        measure(handles, (h) => {
          shown += memory.routingItems(h).length;
        }),
        { meanShown: shown / (handles.length + 20) },
      );
      for (const h of handles) memory.failTurn(h);
    }
    if (only.has('notices')) {
      // M-11.2: what a session reads before each prompt (and while one waits): usually nothing new; at most
      // 200 changes per kind when everything is new (a fresh import, say).
      const rounds = Array.from({ length: 300 }, (_, i) => i);
      let told = 0;
      row(
        `notices, nothing new ${n}`,
        measure(rounds, () => (told += memory.changes({ since: Date.now() - 1000 }).length)),
        { told },
      );
      row(
        `notices, everything new ${n}`,
        measure(rounds.slice(0, 60), () => (told = memory.changes({ since: 0 }).length)),
        { told },
      );
    }
    if (only.has('read')) {
      const ids = workload.reads[n].map((k) => itemId(k));
      row(
        `read ${n}`,
        measure(ids, (id) => memory.read(handle, id)),
      );
    }
    memory.failTurn(handle);
    await memory.close();
  }
}

if (only.has('projection')) {
  log('history + routing context, 1k items');
  const repo = await itemsRepo(1000);
  const memory = MemoryManager.open({ repoRoot: repo.dir });
  const handle = memory.beginTurn({ intent: 'general_chat', userText: 'bench' });
  let chars = 0;
  row(
    'history + routing context (1k items)',
    measure(
      Array.from({ length: 1000 }, (_, i) => i),
      () => {
        const history = memory.history(handle);
        const routing = memory.routingContext(handle);
        chars = routing.length + history.reduce((s, m) => s + m.content.length, 0);
      },
    ),
    { chars },
  );
  memory.failTurn(handle);
  await memory.close();
}
if (only.has('mcp') && maxItems >= 10_000) {
  // The whole round trip a client agent sees: JSON-RPC over the server's stdio, zod input validation, search,
  // structured result, and the SDK client's own output-schema check.
  const n = 10_000;
  log(`MCP memory_search round trip over stdio, ${n} items (target p95 <= 2 ms)`);
  const repo = await itemsRepo(n);
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const cli = new URL('../dist/cli/bin.cjs', import.meta.url).pathname;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--repo', repo.dir],
    env: {},
    stderr: 'ignore',
  });
  const client = new Client({ name: 'autopatch-j-bench', version: '0' });
  await client.connect(transport);
  const classes = workload.queries[n];
  const queries = classes.exact_title.flatMap((q, i) => [q, classes.substring[i], classes.no_hit[i]]).filter((q) => q !== undefined);
  let hits = 0;
  const stats = await measureAsync(
    queries,
    async (query) => {
      const result = await client.callTool({ name: 'memory_search', arguments: { query } });
      if (result.isError) throw new Error(`memory_search failed: ${JSON.stringify(result.content)}`);
      hits += result.structuredContent.hits.length;
    },
    { warmup: 50 },
  );
  row(`mcp memory_search round trip ${n}`, stats, { meanHits: hits / (queries.length + 50), targetP95: 2000 });
  await client.close();
}

/**
 * 1,000 admitted turns through extraction + consolidation with an instant scripted model, in the repository
 * at `dir`. `tag` makes every memory new (title, content and quote carry it), so a Memory seeded with the same
 * workload items gets creates, not duplicates. Returns turns per second net of the model's time.
 */
async function pipelineRun(dir, tag = '') {
  let modelMs = 0;
  const llm = new ScriptedLlm();
  const byTurn = new Map();
  const fields = (k) => {
    const [kindCode, title, aliases, keywords, content, synopsis] = workload.items[k];
    const suffix = tag ? ` ${tag}${k.toString(36)}` : '';
    return { kind: workload.kind_codes[kindCode], title: title + suffix, aliases, keywords, content: content + suffix, synopsis };
  };
  llm.always('memory_extraction', (request) => {
    const start = performance.now();
    const payload = JSON.parse(request.messages[1].content);
    // Turns of earlier rows (the search and routing probes) carry nothing.
    const candidates = payload.turns
      .filter((t) => byTurn.has(t.turn_id))
      .map((t) => {
        const { kind, title, content, aliases } = fields(byTurn.get(t.turn_id));
        return {
          kind,
          title,
          content,
          aliases,
          sources: [{ turn_id: t.turn_id, role: 'user', quote: workload.clause_prefix[kind] + content }],
        };
      });
    const content = JSON.stringify({ thread_compaction: `compaction up to ${payload.turns.at(-1).sequence}`, candidates });
    modelMs += performance.now() - start;
    return { content };
  });
  const byTitle = new Map(Array.from({ length: 1000 }, (_, k) => [fields(k).title, fields(k)]));
  llm.always('memory_consolidation', (request) => {
    const start = performance.now();
    const payload = JSON.parse(request.messages[1].content);
    const operations = payload.candidates.map((c) => {
      const { title, aliases, keywords, content, synopsis } = byTitle.get(c.title);
      return { operation: 'create', candidate_ids: [c.candidate_id], target_id: null, title, content, synopsis, aliases, keywords };
    });
    const content = JSON.stringify({ operations });
    modelMs += performance.now() - start;
    return { content };
  });
  const memory = MemoryManager.open({ repoRoot: dir, llm });
  await memory.processDue({ force: true });
  modelMs = 0;
  for (let k = 0; k < 1000; k += 1) {
    const { kind, content } = fields(k);
    const [user, assistant] = workload.admission_turns[k % workload.admission_turns.length];
    const handle = memory.beginTurn({ intent: 'general_chat', userText: `${user}。${workload.clause_prefix[kind]}${content}` });
    byTurn.set(handle.turnId, k);
    memory.completeTurn(handle, assistant);
  }
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const processed = await memory.processDue({ force: true });
  const totalMs = performance.now() - start;
  // CPU time of this process, for a machine shared with other work (the wall time then includes waiting).
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const status = memory.status();
  await memory.close();
  const netMs = totalMs - modelMs;
  return {
    turnsPerSecond: 1000 / (netMs / 1000),
    cpuTurnsPerSecond: 1000 / ((cpuMs - modelMs) / 1000),
    totalMs,
    modelMs,
    batches: processed.outcomes.length,
    items: status.items,
    filtered: status.filteredCandidates,
  };
}

if (only.has('pipeline')) {
  log('pipeline: 1,000 admitted turns through extraction + consolidation, instant scripted model');
  const repo = freshRepo('pipeline');
  await repo.close();
  const r = await pipelineRun(repo.dir);
  results.rows.push({ operation: 'pipeline', ...r });
  log(
    `  pipeline: ${r.turnsPerSecond.toFixed(0)} turns/s net of model time (${r.totalMs.toFixed(0)} ms total, ${r.modelMs.toFixed(0)} ms in the model, ${r.batches} batches, items ${JSON.stringify(r.items)}, filtered ${r.filtered.total})`,
  );
  repo.remove();
}

if (only.has('pipeline-size')) {
  // Issue 23 item 7: the same 1,000 turns into a Memory that already holds N items; flat within 25 %.
  for (const n of sizes) {
    log(`pipeline into a Memory of ${n} items`);
    // The search repositories are reused (the pipeline is their last user): seeding 100k items takes minutes.
    const repo = await itemsRepo(n);
    const r = await pipelineRun(repo.dir, 'new');
    results.rows.push({ operation: `pipeline at ${n} items`, ...r });
    log(
      `  pipeline at ${n} items: ${r.turnsPerSecond.toFixed(0)} turns/s net of model time, ${r.cpuTurnsPerSecond.toFixed(0)} per CPU second (items ${JSON.stringify(r.items)})`,
    );
    repo.remove();
    itemRepos.delete(n);
  }
}
for (const repo of itemRepos.values()) repo.remove();

if (only.has('export')) {
  const mb = Number(option('export-mb', '300'));
  log(`export: about ${mb} MB of RAW turns, streamed to a file, in a child process`);
  const repo = await seedLargeRepo(mb);
  const outcome = measureExport(repo.dir);
  const complete = endsComplete(outcome.path);
  if (!complete || outcome.turns !== repo.turns) throw new Error(`export incomplete: ${JSON.stringify(outcome)}`);
  results.rows.push({
    operation: 'export',
    turns: outcome.turns,
    bytes: outcome.bytes,
    ms: outcome.ms,
    mbPerSecond: outcome.mbPerSecond,
    maxRssKb: outcome.maxRssKb,
  });
  log(
    `  export: ${outcome.turns} turns, ${(outcome.bytes / 1024 / 1024).toFixed(0)} MB in ${(outcome.ms / 1000).toFixed(1)} s (${outcome.mbPerSecond.toFixed(0)} MB/s), peak RSS ${(outcome.maxRssKb / 1024).toFixed(0)} MB`,
  );
  repo.remove();
}

if (only.has('import')) {
  const mb = Number(option('import-mb', '100'));
  log(`import: about ${mb} MB of RAW turns exported, then restored into a fresh project in a child process`);
  const outcome = await importRound(mb);
  results.rows.push({ operation: 'import', ...outcome });
  log(
    `  import: ${outcome.turns} turns, ${(outcome.bytes / 1024 / 1024).toFixed(0)} MB in ${(outcome.ms / 1000).toFixed(1)} s (${outcome.mbPerSecond.toFixed(0)} MB/s), peak RSS ${(outcome.maxRssKb / 1024).toFixed(0)} MB`,
  );
}

if (only.has('validation')) {
  // M-5.6 gate cost: one candidate through validateCandidate (quote location, clause analysis, speech acts,
  // content anchor), over the gate corpus repeated. The validator is internal, so it is loaded from its module.
  log('validation: the gate corpus candidates, 20 rounds');
  const { validateCandidate } = await import('../dist/memory/pipeline/validation.js');
  const inputs = validationInputs(fileURLToPath(new URL('../quality/gate.v1.json', import.meta.url)));
  const rounds = Array.from({ length: 20 }, () => inputs).flat();
  row(
    'validation per candidate (gate corpus)',
    measure(rounds, (x) => validateCandidate(x.candidate, x.context), { warmup: inputs.length * 2 }),
    { target: { p95: 200 } },
  );
}

if (only.has('quote')) {
  // Issue "Safe hands", item 3: linear in the text (10× the characters, 10× the time), 1M characters under 1 s,
  // and the event loop never held more than 50 ms while a batch is validated.
  log('quote location and validation after 10k / 100k / 1M characters of blank lines');
  quoteRows(row);
  await loopRows(results, log);
}

if (only.has('drain')) {
  // Issue "Safe hands", item 4: the background worker's pace does not fall as the backlog grows.
  log('background drain: the first 1,000 jobs of a backlog of 1k / 10k / 100k, instant model');
  await drainRows(results, log);
}

// Table beside the reference figures (µs).
console.log('\n| operation | p50 µs | p95 µs | p99 µs | reference p50 / p95 µs | p95 ratio |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of results.rows) {
  if (r.operation === 'import') {
    console.log(
      `| import, ${r.turns} turns, ${(r.bytes / 1024 / 1024).toFixed(0)} MB | ${r.mbPerSecond.toFixed(0)} MB/s | | | peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MB | |`,
    );
    continue;
  }
  if (r.operation === 'export') {
    console.log(
      `| export, ${r.turns} turns, ${(r.bytes / 1024 / 1024).toFixed(0)} MB | ${r.mbPerSecond.toFixed(0)} MB/s | | | peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MB | |`,
    );
    continue;
  }
  if (r.jobsPerSecond !== undefined) {
    console.log(`| ${r.operation} | ${r.jobsPerSecond.toFixed(0)} jobs/s | | | | |`);
    continue;
  }
  if (r.maxGapMs !== undefined) {
    console.log(`| ${r.operation} | longest wait ${r.maxGapMs.toFixed(1)} ms | batch ${r.batchMsP50.toFixed(0)} ms | | target ≤ 50 ms | |`);
    continue;
  }
  if (r.operation.startsWith('pipeline')) {
    console.log(
      `| ${r.operation}, net of model time | ${r.turnsPerSecond.toFixed(0)} turns/s | | | 83.8 turns/s | ${(r.turnsPerSecond / 83.8).toFixed(1)}× |`,
    );
    continue;
  }
  const refKey = r.operation.startsWith('read') ? 'read' : r.operation;
  const ref = REFERENCE[refKey];
  const ratio = ref
    ? `${(ref[1] / r.p95).toFixed(0)}×`
    : r.ratioToBareNode !== undefined
      ? `${r.ratioToBareNode.toFixed(2)}× bare node (target ≤ 2.5×)`
      : '';
  const reference = ref ? (ref[0] === null ? `target p95 ≤ ${fmt(ref[1])}` : `${fmt(ref[0])} / ${fmt(ref[1])}`) : '';
  console.log(`| ${r.operation} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${reference} | ${ratio} |`);
}
const outDir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'results');
mkdirSync(outDir, { recursive: true });
const out = option('out', join(outDir, `bench-${results.date.replace(/[:.]/g, '-')}.json`));
writeFileSync(out, JSON.stringify(results, null, 2));
console.log(`\nJSON written to ${out}`);
