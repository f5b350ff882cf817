import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ScriptedLlm } from '../../../src/index.js';
import { Connection } from '../../../src/memory/db/connection.js';
import { consolidateWith, extractWith, quoteUser } from '../../helpers/scripted.js';
import { dbPathOf, tempRepo } from '../../helpers/temp-repo.js';
import { openMemory } from '../../helpers/memory.js';
import { ITEM_TABLES } from '../../helpers/held.js';

// Tables that grow with the Memory: a statement run per turn, candidate or operation must never scan one.
const GROWING = ['turns', 'threads', 'memory_jobs', ...ITEM_TABLES];

/** Every SQL text the pipeline prepares while `run` runs (statements are prepared through Connection.stmt). */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen = new Set<string>();
  const original = Connection.prototype.stmt;
  Connection.prototype.stmt = function (this: Connection, sql: string) {
    seen.add(sql);
    return original.call(this, sql);
  } as typeof original;
  try {
    await run();
  } finally {
    Connection.prototype.stmt = original;
  }
  return [...seen];
}

/** The query plan of a statement, its parameters bound to placeholder values. */
function planOf(db: Database.Database, sql: string): string[] {
  const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...new Set([...sql.matchAll(/(?<![\w'])[:@$]([A-Za-z_]\w*)/g)].map((m) => m[1]!))];
  const positional = sql.replace(/'(?:[^']|'')*'/g, '').split('?').length - 1;
  const args: unknown[] = Array.from({ length: positional }, () => 'x');
  if (named.length > 0) args.push(Object.fromEntries(named.map((n) => [n, 'x'])));
  return (statement.all(...args) as { detail: string }[]).map((r) => r.detail);
}

describe('per-operation statements of extraction and consolidation stay flat with size (issue 23 item 7)', () => {
  it('every statement is an index seek from its most selective side: no scan of a growing table', async () => {
    const repo = tempRepo();
    let round = 0;
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => {
          const [preference, decision] = t.user.split(' | ') as [string, string];
          return [
            quoteUser('user_preference', preference.replace(/^以后/, ''), t, preference),
            quoteUser('project_decision', decision.replace(/^From now on we decided to /, ''), t, decision),
          ];
        }),
      )
      .always(
        'memory_consolidation',
        consolidateWith((c, payload) => {
          // Revise an offered item of the same kind when there is one, so every operation path runs.
          const target = payload.active_items.find((i) => i.kind === c.kind && i.title === c.title);
          return {
            operation: target ? 'revise' : 'create',
            candidate_ids: [c.candidate_id],
            target_id: target?.item_id ?? null,
            title: c.title,
            content: c.content,
            synopsis: '',
            aliases: [],
            keywords: [],
          };
        }),
      );
    const memory = openMemory({ repoRoot: repo, llm });
    const statements = await statementsOf(async () => {
      for (round = 0; round < 3; round += 1) {
        for (let i = 0; i < 6; i += 1) {
          const topic = ['日志', '缓存', '测试', '接口', '部署', '文档'][i]!;
          const userText = `以后${topic}的回答先给结论 | From now on we decided to adopt plan ${['alpha', 'beta', 'gamma'][i % 3]} for ${topic}`;
          const h = memory.beginTurn({ intent: 'general_chat', userText });
          memory.completeTurn(h, 'ok');
        }
        await memory.processDue({ force: true });
      }
    });
    expect(memory.list().length).toBeGreaterThan(5);
    await memory.close();

    const db = new Database(dbPathOf(repo), { readonly: true });
    // Inserting a parent row plans a scan of its children, which SQLite runs only while a deferred foreign-key
    // violation is outstanding (OP_FkIfZero): never in a Memory transaction, whose constraints are immediate.
    const childrenOf = new Map<string, Set<string>>();
    for (const { name } of db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]) {
      for (const fk of db.pragma(`foreign_key_list(${name})`) as { table: string }[]) {
        childrenOf.set(fk.table, (childrenOf.get(fk.table) ?? new Set()).add(name));
      }
    }
    const problems: string[] = [];
    for (const sql of statements) {
      if (!/^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)/i.test(sql) || /^\s*INSERT\b[^;]*\bVALUES\b/i.test(sql)) continue;
      const plan = planOf(db, sql);
      const oneLine = sql.replace(/\s+/g, ' ').slice(0, 160);
      const inserted = /^\s*INSERT(?: OR \w+)? INTO (\w+)/i.exec(sql)?.[1];
      for (const step of plan) {
        const scanned = /^SCAN (\w+)/.exec(step)?.[1];
        if (scanned && inserted && childrenOf.get(inserted)?.has(scanned)) continue;
        // The partial index of open turns holds only the requests running now, whatever the Memory's size.
        if (/^SCAN turns USING (?:COVERING )?INDEX turns_open_lease\b/.test(step)) continue;
        if (scanned && GROWING.includes(scanned)) problems.push(`${step} ← ${oneLine}`);
        // The partial index of active items by kind serves only bounded, index-ordered reads (LIMIT).
        if (/USING INDEX memory_items_active/.test(step) && !/\bLIMIT\b/i.test(sql)) problems.push(`${step} ← ${oneLine}`);
      }
      // A term lookup starts from the term: the first table the plan reads is the term index.
      if (/FROM memory_terms t\s+(?:CROSS )?JOIN memory_items/.test(sql)) {
        const first = plan.find((s) => /^(SEARCH|SCAN) /.test(s)) ?? '';
        if (!/^SEARCH t USING/.test(first)) problems.push(`starts at ${first} ← ${oneLine}`);
      }
    }
    expect(statements.length).toBeGreaterThan(20);
    expect(problems).toEqual([]);
    db.close();
  });
});
