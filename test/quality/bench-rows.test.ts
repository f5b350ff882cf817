import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Row {
  operation: string;
  p50: number;
  p95: number;
  meanHits?: number;
  emptyResults?: number;
  meanShown?: number;
}

// Issue 23 item 6: the search rows of every stage and the routing selection row exist and do real work. The
// figures themselves are the benchmark's (npm run bench), never asserted here.
describe('bench rows for ranked search and routing (issue 23)', () => {
  it('at 1k items every class of search and the routing selection run, and the ranked classes find items', () => {
    const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-bench-rows-'));
    try {
      const out = join(dir, 'rows.json');
      execFileSync(process.execPath, ['bench/run.mjs', '--only', 'search,routing', '--max-items', '1000', '--out', out], {
        cwd: root,
        stdio: 'pipe',
        timeout: 120_000,
      });
      const rows = (JSON.parse(readFileSync(out, 'utf8')) as { rows: Row[] }).rows;
      const byName = new Map(rows.map((r) => [r.operation, r]));
      for (const cls of ['exact_title', 'substring', 'no_hit', 'phrase', 'typo']) {
        const row = byName.get(`search 1000 ${cls}`);
        expect(row, cls).toBeDefined();
        expect(row!.p95, cls).toBeGreaterThanOrEqual(row!.p50);
      }
      expect(byName.get('search 1000 no_hit')!.meanHits).toBe(0);
      // Questions around an item's words and one-typo titles reach the ranked stage and find items there.
      expect(byName.get('search 1000 phrase')!.meanHits).toBeGreaterThan(2);
      expect(byName.get('search 1000 typo')!.meanHits).toBeGreaterThan(2);
      // More items than the routing budget holds: each request is a selection, not the whole list.
      const routing = byName.get('routing selection 1000');
      expect(routing?.meanShown).toBeGreaterThan(5);
      expect(routing!.meanShown).toBeLessThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
