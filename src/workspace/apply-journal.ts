import { closeSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { applyDir } from '../memory/paths.js';
import { createExclusive, processAlive, readNoFollow, writeAll, writePrivateFileAtomic } from '../shared/private-files.js';
import { projectPathParts } from './project-files.js';

/**
 * The apply journal (`.autopatch-j/apply/<id>/journal.json`): what a transactional apply or undo is doing, so
 * a crash at any point is rolled forward or back at the next start. Each transaction has its own folder
 * with the journal and the pre-apply bytes of every file it replaces (`<n>.orig`, a hard link of the old
 * file where the file system allows, else a copy); the last committed apply stays as the record `/undo` reads.
 */

export type JournalState = 'preparing' | 'prepared' | 'committed';

export interface JournalFile {
  /** Project-relative path, forward slashes. */
  path: string;
  /** The temp file beside the target, in the target's folder. */
  temp: string;
  /** The pre-apply bytes, in the transaction's folder. */
  backup: string;
  oldIno: number;
  oldSize: number;
  oldSha256: string;
  /** 0 until the temp file exists. */
  newIno: number;
  newSize: number;
  newSha256: string;
  mode: number;
}

export interface Journal {
  format: 'autopatch-j-apply';
  version: 1;
  id: string;
  pid: number;
  state: JournalState;
  kind: 'apply' | 'undo';
  /** The pending patch it applied (apply), or the apply it undoes (undo). */
  patchId: number | null;
  summary: string;
  undoes: string | null;
  createdAt: number;
  files: JournalFile[];
}

/** What the start-up recovery did with an interrupted transaction; doctor shows the last one. */
export interface RecoveryNote {
  id: string;
  kind: 'apply' | 'undo';
  patchId: number | null;
  action: 'rolled_forward' | 'rolled_back' | 'left_alone';
  files: string[];
  detail: string;
  at: number;
}

const JOURNAL = 'journal.json';
const LOCK = '.lock';
export const LAST_RECOVERY = 'last-recovery.json';
const TEMP_NAME = /^\..{0,200}\.autopatch-j-\d+-[0-9a-z]+\.tmp$/u;
const BACKUP_NAME = /^\d{1,6}\.orig$/u;
const ID_NAME = /^\d{8}T\d{9}Z-[0-9a-z]{6}$/u;

export function transactionDir(repoRoot: string, id: string): string {
  return join(applyDir(repoRoot), id);
}

export function writeJournal(repoRoot: string, journal: Journal, options: { durable?: boolean } = {}): void {
  writePrivateFileAtomic(join(transactionDir(repoRoot, journal.id), JOURNAL), `${JSON.stringify(journal, null, 1)}\n`, options);
}

export function isTransactionId(name: string): boolean {
  return ID_NAME.test(name);
}

export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** Reads a journal, refusing anything but the shape written here (a cloned repository may ship one). */
export function readJournal(repoRoot: string, id: string): Journal | null {
  if (!isTransactionId(id)) return null;
  let text: string;
  try {
    text = readNoFollow(join(transactionDir(repoRoot, id), JOURNAL)).toString('utf8');
  } catch {
    return null;
  }
  try {
    const j = JSON.parse(text) as Partial<Journal>;
    const count = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
    const hash = (h: unknown): boolean => typeof h === 'string' && /^[0-9a-f]{64}$/u.test(h);
    if (j.format !== 'autopatch-j-apply' || j.version !== 1 || j.id !== id || !count(j.pid) || !Array.isArray(j.files)) return null;
    if (j.state !== 'preparing' && j.state !== 'prepared' && j.state !== 'committed') return null;
    if (j.kind !== 'apply' && j.kind !== 'undo') return null;
    for (const f of j.files) {
      if (typeof f?.path !== 'string' || typeof f.temp !== 'string' || typeof f.backup !== 'string') return null;
      projectPathParts(f.path);
      if (!isTempName(f.temp) || !BACKUP_NAME.test(f.backup)) return null;
      if (![f.oldIno, f.oldSize, f.newIno, f.newSize, f.mode].every(count) || !hash(f.oldSha256) || !hash(f.newSha256)) return null;
    }
    return {
      format: 'autopatch-j-apply',
      version: 1,
      id,
      pid: j.pid!,
      state: j.state,
      kind: j.kind,
      patchId: Number.isSafeInteger(j.patchId) ? j.patchId! : null,
      summary: typeof j.summary === 'string' ? j.summary : '',
      undoes: typeof j.undoes === 'string' && isTransactionId(j.undoes) ? j.undoes : null,
      createdAt: Number.isSafeInteger(j.createdAt) ? j.createdAt! : 0,
      files: j.files,
    };
  } catch {
    return null;
  }
}

/** Transaction folders, oldest first. */
export function listTransactions(repoRoot: string): string[] {
  try {
    return readdirSync(applyDir(repoRoot))
      .filter((name) => isTransactionId(name))
      .sort();
  } catch {
    return [];
  }
}

/** Removes a transaction's folder (journal and backups). */
export function removeTransaction(repoRoot: string, id: string): void {
  if (!isTransactionId(id)) return;
  rmSync(transactionDir(repoRoot, id), { recursive: true, force: true });
}

/** The newest committed apply: what `/undo` restores. */
export function lastCommittedApply(repoRoot: string): Journal | null {
  for (const id of listTransactions(repoRoot).reverse()) {
    const journal = readJournal(repoRoot, id);
    if (journal?.state === 'committed' && journal.kind === 'apply') return journal;
  }
  return null;
}

export function writeRecoveryNote(repoRoot: string, note: RecoveryNote): void {
  writePrivateFileAtomic(join(applyDir(repoRoot), LAST_RECOVERY), `${JSON.stringify(note)}\n`);
}

/** The last start-up recovery, for doctor; null when there was none. */
export function readRecoveryNote(repoRoot: string): RecoveryNote | null {
  try {
    const note = JSON.parse(readNoFollow(join(applyDir(repoRoot), LAST_RECOVERY)).toString('utf8')) as RecoveryNote;
    if (typeof note.id !== 'string' || !['rolled_forward', 'rolled_back', 'left_alone'].includes(note.action)) return null;
    return { ...note, files: Array.isArray(note.files) ? note.files.filter((f) => typeof f === 'string') : [] };
  } catch {
    return null;
  }
}

/**
 * One apply or undo at a time per project: `.autopatch-j/apply/.lock` holds the owner's pid, created
 * exclusively; a lock whose process is gone is taken over. Returns the release function, or the pid of the
 * live owner.
 */
export function acquireApplyLock(repoRoot: string): { release: () => void } | { heldBy: number } {
  const path = join(applyDir(repoRoot), LOCK);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = createExclusive(path);
      try {
        writeAll(fd, Buffer.from(String(process.pid)));
      } finally {
        closeSync(fd);
      }
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner = 0;
    try {
      owner = Number(readFileSync(path, 'utf8').trim());
    } catch {
      // Gone meanwhile, or half written by a process that died: try again.
    }
    if (owner !== process.pid && processAlive(owner)) return { heldBy: owner };
    rmSync(path, { force: true });
  }
  return { heldBy: 0 };
}
