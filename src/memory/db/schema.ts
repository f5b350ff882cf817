import Database from 'better-sqlite3';
import { sqliteAddon } from './sqlite-addon.js';

/** PRAGMA user_version of a Memory v2 database (M-2.2). */
export const SCHEMA_VERSION = 2;

/**
 * The Memory v2 schema (M-2.1). This text is the single source of truth: the catalog manifest that
 * verifies an existing database is derived from it (see `schemaManifest`), so the two cannot drift.
 *
 * Times are epoch milliseconds. Lengths are checked in characters, as the contract states them.
 */
export const SCHEMA_SQL = `
CREATE TABLE memory_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  generation INTEGER NOT NULL CHECK (generation >= 1),
  last_error TEXT CHECK (last_error IS NULL OR length(last_error) <= 20000),
  last_succeeded_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE threads (
  id TEXT PRIMARY KEY NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'archived')),
  compaction TEXT NOT NULL DEFAULT '' CHECK (length(compaction) <= 4000),
  compaction_sequence INTEGER NOT NULL DEFAULT 0 CHECK (compaction_sequence >= 0),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  archived_at INTEGER,
  CHECK ((status = 'archived') = (archived_at IS NOT NULL))
) STRICT;

CREATE UNIQUE INDEX threads_one_active ON threads (status) WHERE status = 'active';

CREATE TABLE turns (
  id TEXT PRIMARY KEY NOT NULL,
  thread_id TEXT NOT NULL REFERENCES threads (id),
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  intent TEXT NOT NULL CHECK (intent IN ('code_explain', 'general_chat')),
  user_text TEXT NOT NULL,
  assistant_text TEXT,
  state TEXT NOT NULL CHECK (state IN ('open', 'completed', 'failed', 'interrupted')),
  scope_paths TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(scope_paths) AND json_type(scope_paths) = 'array'),
  lease_owner TEXT,
  lease_expires_at INTEGER,
  failure TEXT CHECK (failure IS NULL OR length(failure) <= 2000),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  CHECK ((state = 'open') = (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL)),
  CHECK ((state = 'open') = (finished_at IS NULL)),
  CHECK ((state = 'completed') = (assistant_text IS NOT NULL))
) STRICT;

CREATE UNIQUE INDEX turns_thread_sequence ON turns (thread_id, sequence);

CREATE INDEX turns_open_lease ON turns (lease_expires_at) WHERE state = 'open';

CREATE TRIGGER turns_raw_text_immutable
BEFORE UPDATE OF id, thread_id, sequence, intent, user_text ON turns
BEGIN
  SELECT RAISE(ABORT, 'turns: RAW user text, thread and sequence are immutable');
END;

CREATE TRIGGER turns_assistant_text_once
BEFORE UPDATE OF assistant_text ON turns
WHEN OLD.assistant_text IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'turns: the final assistant text is written once');
END;

-- Idempotency: a turn has at most one extraction job (turn_id UNIQUE) and an extraction batch at most one
-- consolidation job (memory_jobs_parent).
CREATE TABLE memory_jobs (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('extraction', 'consolidation')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'leased', 'retry_wait', 'succeeded', 'succeeded_no_output')),
  thread_id TEXT NOT NULL REFERENCES threads (id),
  turn_id TEXT UNIQUE REFERENCES turns (id),
  turn_sequence INTEGER,
  parent_job_id TEXT REFERENCES memory_jobs (id),
  generation INTEGER NOT NULL CHECK (generation >= 1),
  attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  lease_owner TEXT,
  lease_expires_at INTEGER,
  batch_id TEXT,
  available_at INTEGER NOT NULL,
  last_error TEXT CHECK (last_error IS NULL OR length(last_error) <= 20000),
  diagnostics TEXT CHECK (diagnostics IS NULL OR json_valid(diagnostics)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  CHECK ((kind = 'extraction') = (turn_id IS NOT NULL)),
  CHECK ((kind = 'extraction') = (turn_sequence IS NOT NULL)),
  CHECK ((kind = 'consolidation') = (parent_job_id IS NOT NULL)),
  CHECK ((status = 'leased') = (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL AND batch_id IS NOT NULL)),
  CHECK ((status IN ('succeeded', 'succeeded_no_output')) = (finished_at IS NOT NULL))
) STRICT;

-- Only unfinished jobs are indexed for claiming: finished ones (nearly all of them) cost nothing here.
CREATE INDEX memory_jobs_open ON memory_jobs (status, kind, thread_id, turn_sequence, created_at) WHERE finished_at IS NULL;

CREATE INDEX memory_jobs_unresolved_errors ON memory_jobs (updated_at, id) WHERE last_error IS NOT NULL;

CREATE UNIQUE INDEX memory_jobs_parent ON memory_jobs (parent_job_id) WHERE parent_job_id IS NOT NULL;

CREATE TABLE memory_candidates (
  id TEXT PRIMARY KEY NOT NULL,
  extraction_job_id TEXT NOT NULL REFERENCES memory_jobs (id),
  consolidation_job_id TEXT REFERENCES memory_jobs (id),
  thread_id TEXT NOT NULL REFERENCES threads (id),
  kind TEXT NOT NULL CHECK (kind IN ('user_preference', 'project_decision', 'discussion_context')),
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 160),
  content TEXT NOT NULL CHECK (length(content) BETWEEN 1 AND 4000),
  aliases TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(aliases) AND json_type(aliases) = 'array'),
  non_factual INTEGER NOT NULL CHECK (non_factual IN (0, 1)),
  status TEXT NOT NULL CHECK (status IN ('pending', 'consolidated', 'rejected', 'suppressed')),
  generation INTEGER NOT NULL CHECK (generation >= 1),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK ((kind = 'discussion_context') = (non_factual = 1))
) STRICT;

CREATE INDEX memory_candidates_consolidation ON memory_candidates (consolidation_job_id);

CREATE INDEX memory_candidates_extraction ON memory_candidates (extraction_job_id);

CREATE TABLE candidate_sources (
  candidate_id TEXT NOT NULL REFERENCES memory_candidates (id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL CHECK (ordinal BETWEEN 0 AND 7),
  turn_id TEXT NOT NULL REFERENCES turns (id),
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  quote TEXT NOT NULL CHECK (length(quote) BETWEEN 1 AND 2000),
  quote_start INTEGER NOT NULL CHECK (quote_start >= 0),
  PRIMARY KEY (candidate_id, ordinal)
) STRICT, WITHOUT ROWID;

CREATE INDEX candidate_sources_turn ON candidate_sources (turn_id, role);

CREATE TABLE memory_items (
  id TEXT NOT NULL,
  revision INTEGER NOT NULL CHECK (revision >= 1),
  kind TEXT NOT NULL CHECK (kind IN ('user_preference', 'project_decision', 'discussion_context')),
  status TEXT NOT NULL CHECK (status IN ('active', 'superseded', 'forgotten')),
  is_current INTEGER NOT NULL CHECK (is_current IN (0, 1)),
  thread_id TEXT REFERENCES threads (id),
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 160),
  content TEXT NOT NULL CHECK (length(content) BETWEEN 1 AND 4000),
  synopsis TEXT NOT NULL CHECK (length(synopsis) <= 400),
  aliases TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(aliases) AND json_type(aliases) = 'array'),
  keywords TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(keywords) AND json_type(keywords) = 'array'),
  non_factual INTEGER NOT NULL CHECK (non_factual IN (0, 1)),
  supersedes_id TEXT,
  superseded_by_id TEXT,
  consolidation_job_id TEXT NOT NULL REFERENCES memory_jobs (id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (id, revision),
  CHECK ((kind = 'discussion_context') = (thread_id IS NOT NULL)),
  CHECK ((kind = 'discussion_context') = (non_factual = 1)),
  CHECK (is_current = 1 OR status = 'superseded')
) STRICT;

CREATE UNIQUE INDEX memory_items_current ON memory_items (id) WHERE is_current = 1;

CREATE INDEX memory_items_active ON memory_items (kind, thread_id, updated_at) WHERE status = 'active';

CREATE TRIGGER memory_items_append_only
BEFORE UPDATE OF id, revision, kind, thread_id, title, content, synopsis, aliases, keywords, non_factual,
  supersedes_id, consolidation_job_id, created_at ON memory_items
BEGIN
  SELECT RAISE(ABORT, 'memory_items: revisions are append-only');
END;

CREATE TABLE memory_item_candidates (
  item_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  candidate_id TEXT NOT NULL REFERENCES memory_candidates (id),
  PRIMARY KEY (item_id, revision, candidate_id),
  FOREIGN KEY (item_id, revision) REFERENCES memory_items (id, revision)
) STRICT, WITHOUT ROWID;

CREATE INDEX memory_item_candidates_candidate ON memory_item_candidates (candidate_id);

CREATE TABLE memory_terms (
  term TEXT NOT NULL,
  item_id TEXT NOT NULL,
  field TEXT NOT NULL CHECK (field IN ('title', 'alias', 'keyword')),
  thread_id TEXT,
  PRIMARY KEY (term, item_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX memory_terms_item ON memory_terms (item_id);

CREATE TABLE memory_term_suffixes (
  suffix TEXT NOT NULL,
  item_id TEXT NOT NULL,
  thread_id TEXT,
  PRIMARY KEY (suffix, item_id)
) STRICT, WITHOUT ROWID;


CREATE TABLE memory_content_terms (
  term TEXT NOT NULL,
  item_id TEXT NOT NULL,
  thread_id TEXT,
  PRIMARY KEY (term, item_id)
) STRICT, WITHOUT ROWID;

`;

/** One row of `sqlite_schema`, as compared during verification. */
export interface CatalogEntry {
  type: string;
  name: string;
  tblName: string;
  sql: string | null;
}

/** Whitespace-insensitive form of a schema statement: SQLite keeps CREATE text as written. */
export function normalizeSchemaSql(sql: string | null): string | null {
  return sql === null ? null : sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
}

let cachedManifest: ReadonlyMap<string, CatalogEntry> | undefined;

/** Key of a catalog entry: type and name identify a schema object. */
export function catalogKey(type: string, name: string): string {
  return `${type} ${name}`;
}

/**
 * The exact Memory v2 catalog, derived once per process by applying SCHEMA_SQL to an in-memory database
 * (M-2.2). Autoindexes of UNIQUE/PRIMARY KEY constraints are part of it, so a dropped constraint shows.
 */
export function schemaManifest(): ReadonlyMap<string, CatalogEntry> {
  if (cachedManifest) return cachedManifest;
  const db = new Database(':memory:', sqliteAddon());
  try {
    db.exec(SCHEMA_SQL);
    cachedManifest = readCatalog(db);
    return cachedManifest;
  } finally {
    db.close();
  }
}

/** The live catalog of a connection, keyed like the manifest. */
export function readCatalog(db: Database.Database): Map<string, CatalogEntry> {
  const rows = db
    // sqlite_stat* tables belong to SQLite's query planner (ANALYZE), not to the Memory catalog.
    .prepare(
      "SELECT type, name, tbl_name AS tblName, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\' ORDER BY type, name",
    )
    .all() as CatalogEntry[];
  const out = new Map<string, CatalogEntry>();
  for (const row of rows) {
    out.set(catalogKey(row.type, row.name), { ...row, sql: normalizeSchemaSql(row.sql) });
  }
  return out;
}
