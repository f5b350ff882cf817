import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dbPathOf, withRawDb } from './temp-repo.js';

/**
 * The held entry the gate's `suggest` verdict stores (M-5.7: with the extraction diagnostics, no table of
 * its own), written with real SQL into the extraction job of the turn.
 */
export function plantSuggestion(repo: string, turnId: string, quote: string): string {
  return withRawDb(dbPathOf(repo), (db) => {
    const job = db.prepare('SELECT id FROM memory_jobs WHERE turn_id = ?').pluck().get(turnId) as string;
    const text = db.prepare('SELECT user_text FROM turns WHERE id = ?').pluck().get(turnId) as string;
    const start = Array.from(text.slice(0, text.indexOf(quote))).length;
    const entry = {
      kind: 'user_preference',
      title: '先跑 lint 再提交',
      content: '提交前先跑 lint',
      aliases: ['lint first'],
      sources: [{ turnId, role: 'user', quote, start }],
      reason: 'polite_request',
      detail: 'a request in question form',
      quote,
      turnId,
    };
    db.prepare(`UPDATE memory_jobs SET diagnostics = json_set(diagnostics, '$.suggestions', json(?)) WHERE id = ?`).run(
      JSON.stringify([entry]),
      job,
    );
    return `${job}#s1`;
  });
}

/** A refusal the gate marked keepable (a reading of the words), with its verified candidate. */
export function markKeepable(repo: string, refusalId: string, sources: object[]): void {
  const [job, n] = refusalId.split('#');
  withRawDb(dbPathOf(repo), (db) =>
    db
      .prepare(`UPDATE memory_jobs SET diagnostics = json_set(diagnostics, ?, json('true'), ?, json(?)) WHERE id = ?`)
      .run(
        `$.rejections[${Number(n) - 1}].keepable`,
        `$.rejections[${Number(n) - 1}].candidate`,
        JSON.stringify({ kind: 'user_preference', title: '先跑 lint 再提交', content: '提交前先跑 lint', aliases: [], sources }),
        job,
      ),
  );
}

export const ITEM_TABLES = [
  'memory_candidates',
  'candidate_sources',
  'memory_items',
  'memory_item_candidates',
  'memory_terms',
  'memory_term_suffixes',
  'memory_content_terms',
];

/** The bytes of every page of the items tables and their indexes, after a checkpoint, hashed. */
export function itemTableBytes(repo: string): string {
  const path = dbPathOf(repo);
  const pages = withRawDb(path, (db) => {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const size = db.pragma('page_size', { simple: true }) as number;
    const rows = db
      .prepare(
        `SELECT d.pageno FROM dbstat d JOIN sqlite_schema s ON s.name = d.name
          WHERE s.tbl_name IN (SELECT value FROM json_each(?)) ORDER BY d.pageno`,
      )
      .all(JSON.stringify(ITEM_TABLES)) as { pageno: number }[];
    return { size, numbers: rows.map((r) => r.pageno) };
  });
  const file = readFileSync(path);
  const hash = createHash('sha256');
  for (const n of pages.numbers) hash.update(file.subarray((n - 1) * pages.size, n * pages.size));
  return `${pages.numbers.length}:${hash.digest('hex')}`;
}
