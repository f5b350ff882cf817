import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { TERM_FORMAT } from '../../src/memory/db/term-format.js';
import { TERM_RULES_VERSION } from '../../src/shared/search-words.js';
import { seedItems } from '../helpers/seed-items.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

describe('search terms of an older format (Memory v2 databases written before ranked retrieval)', () => {
  it('a new database records the current term format in its header; the catalog stays the v2 catalog', async () => {
    const repo = tempRepo();
    await MemoryManager.open({ repoRoot: repo }).close();
    expect(withRawDb(dbPathOf(repo), (db) => db.pragma('application_id', { simple: true }))).toBe(TERM_FORMAT);
    const memory = openMemory({ repoRoot: repo });
    expect(memory.status().health).toBe('healthy');
  });

  it('rows an older format wrote are written again once at start-up, from the active items', async () => {
    const repo = tempRepo();
    seedItems(repo, [{ kind: 'project_decision', title: 'Rate limiter in front of the login API', content: 'Five requests per second.' }]);
    // What an older version left: other rows for the item (mid-word suffixes, unstemmed words), no format mark.
    withRawDb(dbPathOf(repo), (db) => {
      db.exec(`DELETE FROM memory_terms; DELETE FROM memory_term_suffixes; DELETE FROM memory_content_terms;
               INSERT INTO memory_terms (term, item_id, field, thread_id) VALUES ('rate limiter in front of the login api', 'mseed0000', 'title', NULL);
               INSERT INTO memory_term_suffixes (suffix, item_id, thread_id) VALUES ('imiter in front', 'mseed0000', NULL);
               INSERT INTO memory_content_terms (term, item_id, thread_id) VALUES ('zzstale', 'mseed0000', NULL);
               PRAGMA application_id = 0;`);
    });
    const memory = openMemory({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    expect(memory.search(handle, 'zzstale')).toEqual([]);
    expect(memory.search(handle, 'rateLimiter').map((h) => h.match)).toEqual(['prefix']);
    expect(memory.search(handle, 'login api rate limiting').map((h) => h.title)).toEqual(['Rate limiter in front of the login API']);
    memory.failTurn(handle);
    await memory.close();
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.pragma('application_id', { simple: true })).toBe(TERM_FORMAT);
      expect(db.prepare("SELECT count(*) AS n FROM memory_term_suffixes WHERE suffix = 'imiter in front'").get()).toEqual({ n: 0 });
    });
  });

  it('rows of the previous word rules (no glossary concepts) are written again: "db" then finds 数据库', async () => {
    const repo = tempRepo();
    seedItems(repo, [{ kind: 'project_decision', title: '数据库迁移统一用 Flyway', content: '数据库迁移统一用 Flyway。' }]);
    const previous = (TERM_FORMAT & ~0xff00) | ((TERM_RULES_VERSION - 1) << 8);
    withRawDb(dbPathOf(repo), (db) => {
      db.exec(`DELETE FROM memory_content_terms WHERE term LIKE '=%'; PRAGMA application_id = ${previous};`);
    });
    const memory = MemoryManager.open({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    expect(memory.search(handle, 'db migration').map((h) => h.title)).toEqual(['数据库迁移统一用 Flyway']);
    memory.failTurn(handle);
    await memory.close();
    expect(withRawDb(dbPathOf(repo), (db) => db.pragma('application_id', { simple: true }))).toBe(TERM_FORMAT);
  });
});
