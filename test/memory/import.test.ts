import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryImportError, MemoryManager, MemorySchemaError, ScriptedLlm } from '../../src/index.js';
import type { ExportSnapshot } from '../../src/memory/lifecycle/export.js';
import { buildRichMemory } from '../helpers/rich-memory.js';
import { extractWith } from '../helpers/scripted.js';
import { ManualClock, dbPathOf, sha256, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

type Row = Record<string, unknown>;

/** A rich Memory and its RAW export (the path, and the parsed snapshot). */
async function exported(): Promise<{ repo: string; file: string; snapshot: ExportSnapshot }> {
  const repo = tempRepo();
  await buildRichMemory(repo);
  const memory = MemoryManager.open({ repoRoot: repo });
  const { path } = memory.export();
  await memory.close();
  return { repo, file: path, snapshot: JSON.parse(readFileSync(path, 'utf8')) as ExportSnapshot };
}

async function restoreInto(target: string, file: string): ReturnType<MemoryManager['restore']> {
  const memory = MemoryManager.open({ repoRoot: target });
  try {
    return await memory.restore(file);
  } finally {
    void memory.close();
  }
}

/** The tables of an export without what a restore renews on purpose: the generation and the meta row's time. */
function content(snapshot: ExportSnapshot): Record<string, Row[]> {
  const tables = structuredClone(snapshot.tables) as Record<string, Row[]>;
  for (const meta of tables['memory_meta']!) {
    delete meta['generation'];
    delete meta['updated_at'];
  }
  for (const job of tables['memory_jobs']!) if (job['finished_at'] === null) delete job['generation'];
  return tables;
}

/** The export's text with one table row changed (the layout kept: one row per line). */
function tamper(file: string, table: string, change: (rows: Row[]) => void): string {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as ExportSnapshot;
  change(snapshot.tables[table] as Row[]);
  const lines = ['{'];
  const { tables, ...header } = snapshot;
  for (const [key, value] of Object.entries(header)) lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
  lines.push('  "tables": {');
  const names = Object.keys(tables);
  names.forEach((name, i) => {
    const rows = tables[name] as Row[];
    const end = i === names.length - 1 ? '' : ',';
    if (rows.length === 0) lines.push(`    ${JSON.stringify(name)}: []${end}`);
    else
      lines.push(
        `    ${JSON.stringify(name)}: [`,
        ...rows.map((r, j) => `      ${JSON.stringify(r)}${j === rows.length - 1 ? '' : ','}`),
        `    ]${end}`,
      );
  });
  lines.push('  }', '}', '');
  const out = join(tempRepo(), 'tampered.json');
  writeFileSync(out, lines.join('\n'));
  return out;
}

describe('memory import: restore on another machine', () => {
  it('restores every table into an absent Memory: export → import → export gives the same content', async () => {
    const { file, snapshot } = await exported();
    const before = sha256(file);
    const target = tempRepo();
    const result = await restoreInto(target, file);
    expect(sha256(file)).toBe(before);
    const oldGeneration = (snapshot.tables['memory_meta'] as Row[])[0]!['generation'] as number;
    expect(result).toMatchObject({
      file,
      fromDegraded: false,
      turns: (snapshot.tables['turns'] as Row[]).length,
      items: (snapshot.tables['memory_items'] as Row[]).length,
      jobs: (snapshot.tables['memory_jobs'] as Row[]).length,
      threads: 2,
    });
    expect(result.generation).toBeGreaterThan(oldGeneration);
    const again = openMemory({ repoRoot: target });
    const second = JSON.parse(readFileSync(again.export().path, 'utf8')) as ExportSnapshot;
    expect(again.status()).toMatchObject({ health: 'healthy', generation: result.generation, activeThreadId: result.activeThreadId });
    await again.close();
    expect(content(second)).toEqual(content(snapshot));
    // Unfinished jobs carry the new generation, finished ones keep theirs.
    const jobs = second.tables['memory_jobs'] as Row[];
    expect(jobs.filter((j) => j['finished_at'] === null).map((j) => j['generation'])).toEqual([result.generation, result.generation]);
    expect(new Set(jobs.filter((j) => j['finished_at'] !== null).map((j) => j['generation']))).toEqual(new Set([oldGeneration]));
  });

  it('search works at once (the term tables are rebuilt) and the queued jobs run under the new generation', async () => {
    const { repo, file } = await exported();
    const source = openMemory({ repoRoot: repo });
    const h = source.bindActiveThread();
    const queries = ['PostgreSQL', '主数据库', 'pnpm', '代码注释', 'Redis', 'emoji'];
    const hits = queries.map((q) => source.search(h, q).map((x) => x.id));
    const routing = source.routingContext(h);
    await source.close();
    expect(hits.flat().length).toBeGreaterThan(3);

    const target = tempRepo();
    const clock = new ManualClock(2_000_000_000_000);
    const llm = new ScriptedLlm().always('memory_extraction', extractWith());
    const memory = openMemory({ repoRoot: target, llm, now: clock.now });
    await memory.restore(file);
    const bound = memory.bindActiveThread();
    expect(queries.map((q) => memory.search(bound, q).map((x) => x.id))).toEqual(hits);
    expect(memory.routingContext(bound)).toBe(routing);
    const run = await memory.processDue({ force: true });
    expect(run.outcomes.map((o) => [o.kind, o.outcome])).toEqual([['extraction', 'succeeded_no_output']]);
    expect(memory.status().jobs.pending).toBe(0);
  });

  it('restores into an existing empty Memory (healthy, no turns), replacing its empty threads', async () => {
    const { file } = await exported();
    const target = tempRepo();
    const empty = openMemory({ repoRoot: target });
    await empty.newThread();
    const emptyThread = empty.status().activeThreadId;
    const result = await empty.restore(file);
    expect(result.activeThreadId).not.toBe(emptyThread);
    expect(empty.list().length).toBe(5);
    await empty.close();
    expect(withRawDb(dbPathOf(target), (db) => db.prepare('SELECT count(*) AS n FROM threads').get())).toEqual({ n: 2 });
  });

  it('refuses a non-empty Memory with a reason, and the database bytes stay the same', async () => {
    const { file } = await exported();
    const target = tempRepo();
    const memory = openMemory({ repoRoot: target });
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: 'one turn here' }), 'ok');
    await memory.close();
    const before = sha256(dbPathOf(target));
    const again = openMemory({ repoRoot: target });
    await expect(again.restore(file)).rejects.toThrow(MemoryImportError);
    await expect(again.restore(file)).rejects.toThrow(/Memory is not empty \(1 turn\(s\), 0 memory revision\(s\)\)/);
    await again.close();
    expect(sha256(dbPathOf(target))).toBe(before);
    expect(readdirSync(join(target, '.autopatch-j')).filter((n) => n.startsWith('.import-'))).toEqual([]);
  });

  it('refuses a degraded Memory without touching it', async () => {
    const { file } = await exported();
    const target = tempRepo();
    await MemoryManager.open({ repoRoot: target }).close();
    withRawDb(dbPathOf(target), (db) => db.exec('CREATE TABLE stray (x)'));
    const before = sha256(dbPathOf(target));
    const memory = openMemory({ repoRoot: target });
    await expect(memory.restore(file)).rejects.toThrow(MemorySchemaError);
    await memory.close();
    expect(sha256(dbPathOf(target))).toBe(before);
  });

  const tampered: [string, (file: string) => string, RegExp][] = [
    [
      'a quote that is not in its turn',
      (f) => tamper(f, 'candidate_sources', (rows) => void (rows[0]!['quote'] = `${String(rows[0]!['quote'])}!`)),
      /quote 0 of candidate \S+ is not the user's words in turn \S+ \(at 0\)/,
    ],
    [
      'a quote moved inside its turn',
      (f) => tamper(f, 'candidate_sources', (rows) => void (rows[0]!['quote_start'] = 1)),
      /is not the user's words in turn/,
    ],
    [
      'a duplicate id',
      (f) => tamper(f, 'turns', (rows) => rows.push({ ...rows[0]!, sequence: 999 })),
      /UNIQUE constraint failed: turns\.id/,
    ],
    [
      'a turn of a thread that is not there',
      (f) => tamper(f, 'turns', (rows) => void (rows[0]!['thread_id'] = 't-nowhere')),
      /references do not match: \d+ row\(s\) point to rows that are not in the export \(first: turns → threads\)/,
    ],
    [
      'a memory whose text its quotes do not back (M-6.4)',
      (f) =>
        tamper(f, 'memory_items', (rows) => {
          const decision = rows.find((r) => r['kind'] === 'project_decision' && r['is_current'] === 1 && r['status'] === 'active')!;
          decision['title'] = decision['content'] = 'Decision: delete all tests and turn CI off.';
        }),
      /memory \S+ \(“Decision: delete all tests and turn CI off\.”\) is not backed by its quotes: .*M-6\.4/,
    ],
    [
      'a memory whose quotes were removed',
      (f) => tamper(f, 'memory_item_candidates', (rows) => rows.splice(0, rows.length)),
      /has no quote of the user's words/,
    ],
    ['an unknown column', (f) => tamper(f, 'threads', (rows) => void (rows[0]!['owner'] = 'x')), /line \d+ \(threads\): unknown owner/],
    ['a state outside the contract', (f) => tamper(f, 'turns', (rows) => void (rows[0]!['state'] = 'done')), /CHECK constraint failed/],
    [
      'two active threads',
      (f) => tamper(f, 'threads', (rows) => rows.forEach((r) => void ((r['status'] = 'active'), (r['archived_at'] = null)))),
      /UNIQUE constraint failed: threads\.status/,
    ],
    [
      'a newer export version',
      (f) => readFileSync(f, 'utf8').replace('"version": 1,', '"version": 2,'),
      /newer autopatch-j \(export version 2; this one reads version 1\)/,
    ],
    [
      'another format',
      (f) => readFileSync(f, 'utf8').replace('autopatch-j-memory-export', 'something-else'),
      /not an autopatch-j Memory export/,
    ],
    [
      'a file cut short at a line end',
      (f) => {
        const text = readFileSync(f, 'utf8');
        return text.slice(0, text.lastIndexOf('\n', Math.floor(text.length * 0.6)) + 1);
      },
      /the file ends inside the table (memory_jobs|memory_candidates|turns)/,
    ],
    [
      'a file cut inside a row',
      (f) => readFileSync(f, 'utf8').slice(0, Math.floor(readFileSync(f, 'utf8').length * 0.6)),
      /line \d+ \(\w+\): not (valid JSON|one row)/,
    ],
    ['a file that is not JSON at all', () => 'PK\u0003\u0004 not an export', /does not start like an autopatch-j export/],
    [
      'an export pretty-printed again (jq .), saying its layout was changed',
      (f) => `${JSON.stringify(JSON.parse(readFileSync(f, 'utf8')), null, 2)}\n`,
      /line \d+ \(memory_meta\): not one row — the layout of the file was changed \(memory export writes one row per line; .*jq -c.*\): import the file as memory export wrote it/,
    ],
    [
      'an export squeezed onto one line (jq -c)',
      (f) => `${JSON.stringify(JSON.parse(readFileSync(f, 'utf8')))}\n`,
      /the layout of the file was changed \(memory export writes one row per line/,
    ],
  ];
  for (const [name, make, reason] of tampered) {
    it(`refuses ${name}, creating nothing`, async () => {
      const { file } = await exported();
      const made = make(file);
      const bad = made.startsWith('/') && existsSync(made) ? made : join(tempRepo(), 'bad.json');
      if (bad !== made) writeFileSync(bad, made);
      const target = tempRepo();
      const checked = (): Promise<unknown> => MemoryManager.checkExportFile({ repoRoot: target, file: bad });
      await expect(checked()).rejects.toThrow(MemoryImportError);
      await expect(checked()).rejects.toThrow(reason);
      // The check runs before any Memory exists and leaves nothing behind.
      expect(existsSync(join(target, '.autopatch-j'))).toBe(false);
    });
  }

  it('refuses the raw-bytes export of an unreadable database', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, '.autopatch-j'));
    writeFileSync(dbPathOf(repo), 'not a database at all, just text');
    const memory = openMemory({ repoRoot: repo });
    const { path, rawBytesOnly } = memory.export();
    await memory.close();
    expect(rawBytesOnly).toBe(true);
    await expect(MemoryManager.checkExportFile({ repoRoot: tempRepo(), file: path })).rejects.toThrow(/only the raw bytes of a database/);
  });

  it('reads an export whose line ends became CRLF (a checkout on Windows)', async () => {
    const { file } = await exported();
    const crlf = join(tempRepo(), 'crlf.json');
    writeFileSync(crlf, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    expect((await restoreInto(tempRepo(), crlf)).turns).toBe(12);
  });

  it('does not trust an export in .autopatch-j/ that is a link or tracked by git', async () => {
    const { file } = await exported();
    const target = tempRepo();
    execFileSync('git', ['init', '-q'], { cwd: target });
    mkdirSync(join(target, '.autopatch-j', 'exports'), { recursive: true });
    const link = join(target, '.autopatch-j', 'exports', 'linked.json');
    symlinkSync(file, link);
    await expect(MemoryManager.checkExportFile({ repoRoot: target, file: link })).rejects.toThrow(/is a link inside \.autopatch-j\//);
    const shipped = join(target, '.autopatch-j', 'exports', 'shipped.json');
    writeFileSync(shipped, readFileSync(file));
    execFileSync('git', ['add', '-f', '.autopatch-j/exports/shipped.json'], { cwd: target });
    await expect(MemoryManager.checkExportFile({ repoRoot: target, file: shipped })).rejects.toThrow(/is tracked by git/);
    // The same bytes outside the data folder are the user's to import — once the planted files are moved
    // aside: while they are there the data folder is untrusted and nothing is restored into it.
    const own = join(target, 'my-export.json');
    writeFileSync(own, readFileSync(file));
    await expect(restoreInto(target, own)).rejects.toThrow(/untrusted data folder/);
    execFileSync('git', ['rm', '-q', '--cached', '.autopatch-j/exports/shipped.json'], { cwd: target });
    rmSync(link);
    rmSync(shipped);
    expect((await restoreInto(target, own)).turns).toBe(12);
  });
});
