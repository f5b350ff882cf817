import { join } from 'node:path';

/**
 * Where autopatch-j keeps a project's data. This module is the one place the data folder and its files are
 * named; it imports nothing of the project, so every layer (workspace included) may use it.
 */

/** The data folder's name inside a project. */
export const DATA_DIR_NAME = '.autopatch-j';

/** Folder that holds everything autopatch-j keeps for a project. */
export function dataDir(repoRoot: string): string {
  return join(repoRoot, DATA_DIR_NAME);
}

/** The Memory database, the only runtime source of truth (M-2.1). */
export function memoryDbPath(repoRoot: string): string {
  return join(dataDir(repoRoot), 'memory.db');
}

/** One-time RAW exports (M-10.4). */
export function exportsDir(repoRoot: string): string {
  return join(dataDir(repoRoot), 'exports');
}

/** Where a proposed patch waits for /apply between processes. */
export function pendingPatchPath(repoRoot: string): string {
  return join(dataDir(repoRoot), 'pending-patch.json');
}

/** The interactive session's line history. */
export function cliHistoryPath(repoRoot: string): string {
  return join(dataDir(repoRoot), 'cli_history');
}

/** Apply journals and the pre-apply bytes `/undo` restores (one folder per transaction). */
export function applyDir(repoRoot: string): string {
  return join(dataDir(repoRoot), 'apply');
}

/** The journal of a clear replacing a damaged database, while it runs (or after a crash cut it short). */
export function clearJournalPath(repoRoot: string): string {
  return join(dataDir(repoRoot), 'clear-journal.json');
}
