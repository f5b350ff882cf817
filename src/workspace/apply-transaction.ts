import {
  closeSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  renameSync,
  rmSync,
  statfsSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { applyDir, dataDir } from '../memory/paths.js';
import { nodeCrypto } from '../shared/crypto.js';
import { randomToken } from '../shared/ids.js';
import { UNTRUSTED_PREFIX, untrustedData } from '../shared/data-trust.js';
import { createExclusive, makeDataFolder, makePrivateFolder, readNoFollow, syncFolder, writeAll } from '../shared/private-files.js';
import {
  type Journal,
  type JournalFile,
  acquireApplyLock,
  listTransactions,
  readJournal,
  removeTransaction,
  transactionDir,
  writeJournal,
} from './apply-journal.js';
import { type OpenedFile, type ProjectDir, entryAt, insideRoot } from './project-files.js';

/** One file a transaction replaces: as opened (and read) and its new bytes. */
export interface Replacement {
  file: OpenedFile;
  before: Buffer;
  after: Buffer;
}

export type TransactionResult = { ok: true; id: string; files: string[] } | { ok: false; problems: string[] };

/** Room left on a file system beyond what a transaction writes, so the disk is never filled to the last block. */
const SPACE_MARGIN = 256 * 1024;

export function sha256(bytes: Buffer): string {
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

function transactionId(now: number): string {
  return `${new Date(now).toISOString().replace(/[-:]/g, '').replace('.', '')}-${randomToken(6)}`;
}

function tempNameFor(name: string): string {
  // Short enough for any file-name limit; recognisable in a listing; unique by pid and random part.
  return `.${Array.from(name).slice(0, 40).join('')}.autopatch-j-${process.pid}-${randomToken(8)}.tmp`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function freeBytes(path: string): number | null {
  try {
    const s = statfsSync(path);
    // root may use the blocks reserved for it.
    return (process.getuid?.() === 0 ? s.bfree : s.bavail) * s.bsize;
  } catch {
    return null;
  }
}

function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

function spaceProblem(file: OpenedFile, needed: number, free: number | null): string {
  return (
    `${file.rel}: not enough space on the disk: the new file needs ${formatBytes(needed)}` +
    `${free !== null ? `, ${formatBytes(free)} ${free === 1 ? 'is' : 'are'} free` : ''}; nothing was changed`
  );
}

function fsyncDir(dir: ProjectDir): void {
  try {
    fsyncSync(dir.fd);
  } catch {
    // Some file systems refuse; the entry is in place, only its durability is weaker.
  }
}

/**
 * Replaces files all together or not at all (issue "Safe hands", item 1). Each new file is written beside
 * its target (same folder, exclusive create, owner's mode, fsync) and the target's bytes are kept in the
 * transaction's folder; the journal then says `prepared` and the temp files are renamed over their targets
 * in turn, each target checked first to still be the file that was read, in a folder still inside the
 * project. A crash before `prepared` leaves every file as it was (the temp files are removed at the next
 * start); after it, the next start completes the renames. A full disk, a changed file or any other failure
 * undoes what was done and says why.
 */
export function runTransaction(
  repoRoot: string,
  root: ProjectDir,
  replacements: readonly Replacement[],
  meta: { kind: 'apply' | 'undo'; patchId: number | null; summary: string; undoes: string | null; now: number },
): TransactionResult {
  // The journal and the kept bytes go into .autopatch-j/: never into one that came from elsewhere.
  const untrusted = untrustedData(repoRoot, dataDir(repoRoot));
  if (untrusted) return { ok: false, problems: [`nothing was changed: ${untrusted.reason.slice(UNTRUSTED_PREFIX.length)}`] };
  makeDataFolder(dataDir(repoRoot));
  makePrivateFolder(applyDir(repoRoot));
  const lock = acquireApplyLock(repoRoot);
  if ('heldBy' in lock) {
    return { ok: false, problems: [`another autopatch-j process (pid ${lock.heldBy}) is applying a patch in this project; try again`] };
  }
  try {
    const precheck = checkSpace(replacements);
    if (precheck) return { ok: false, problems: [precheck] };
    let id = transactionId(meta.now);
    for (;;) {
      try {
        mkdirSync(transactionDir(repoRoot, id), { mode: 0o700 });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        id = transactionId(meta.now);
      }
    }
    const journal: Journal = {
      format: 'autopatch-j-apply',
      version: 1,
      id,
      pid: process.pid,
      state: 'preparing',
      kind: meta.kind,
      patchId: meta.patchId,
      summary: meta.summary,
      undoes: meta.undoes,
      createdAt: meta.now,
      files: replacements.map((r, n) => ({
        path: r.file.rel,
        temp: tempNameFor(r.file.name),
        backup: `${n}.orig`,
        oldIno: r.file.ino,
        oldSize: r.before.length,
        oldSha256: sha256(r.before),
        newIno: 0,
        newSize: r.after.length,
        newSha256: sha256(r.after),
        mode: r.file.mode,
      })),
    };
    try {
      writeJournal(repoRoot, journal);
    } catch (error) {
      removeTransaction(repoRoot, id);
      if (isNoSpace(error))
        return { ok: false, problems: ['not enough space on the disk for the apply journal in .autopatch-j/; nothing was changed'] };
      throw error;
    }
    const prepared = prepare(repoRoot, journal, replacements);
    if (prepared !== null) {
      discard(repoRoot, journal, replacements);
      return { ok: false, problems: [prepared] };
    }
    journal.state = 'prepared';
    try {
      writeJournal(repoRoot, journal);
    } catch (error) {
      discard(repoRoot, journal, replacements);
      if (isNoSpace(error))
        return { ok: false, problems: ['not enough space on the disk for the apply journal in .autopatch-j/; nothing was changed'] };
      throw error;
    }
    const switched = switchAll(root, journal, replacements, repoRoot);
    if (switched !== null) return { ok: false, problems: [switched] };
    journal.state = 'committed';
    // Not synced: lost to a power cut, the journal says `prepared` and the next start finds every file new.
    writeJournal(repoRoot, journal, { durable: false });
    pruneOthers(repoRoot, id, meta.kind === 'undo' ? meta.undoes : null);
    if (meta.kind === 'undo') removeTransaction(repoRoot, id);
    return { ok: true, id, files: journal.files.map((f) => f.path) };
  } finally {
    lock.release();
  }
}

/** Space for the temp files on each file system (the backups are hard links where possible). */
function checkSpace(replacements: readonly Replacement[]): string | null {
  const perDevice = new Map<number, number>();
  for (const r of replacements) {
    const used = (perDevice.get(r.file.dev) ?? 0) + r.after.length;
    perDevice.set(r.file.dev, used);
    const free = freeBytes(r.file.dir.realPath());
    if (free !== null && used + SPACE_MARGIN > free) return spaceProblem(r.file, r.after.length, free);
  }
  return null;
}

/** Writes every temp file and keeps every old file's bytes; null on success, else the problem (nothing renamed). */
function prepare(repoRoot: string, journal: Journal, replacements: readonly Replacement[]): string | null {
  const folder = transactionDir(repoRoot, journal.id);
  for (let n = 0; n < replacements.length; n += 1) {
    const r = replacements[n]!;
    const entry = journal.files[n]!;
    const problem = writeTemp(r, entry);
    if (problem !== null) return problem;
    const kept = keepBackup(r, join(folder, entry.backup));
    if (kept !== null) return kept;
  }
  // The temp files' names must be durable before the journal says `prepared`: one sync per folder.
  for (const dir of new Set(replacements.map((r) => r.file.dir))) fsyncDir(dir);
  syncFolder(folder);
  return null;
}

function writeTemp(r: Replacement, entry: JournalFile): string | null {
  let fd: number;
  try {
    fd = createExclusive(r.file.dir.child(entry.temp), r.file.mode & 0o777);
  } catch (error) {
    if (isNoSpace(error)) return spaceProblem(r.file, r.after.length, freeBytes(r.file.dir.realPath()));
    return `${r.file.rel}: cannot create a file beside it (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was changed`;
  }
  try {
    const old = fstatSync(r.file.fd);
    try {
      fchownSync(fd, old.uid, old.gid);
    } catch {
      // Only root may give a file away; the new file then belongs to whoever applies the patch.
    }
    writeAll(fd, r.after);
    fsyncSync(fd);
    entry.newIno = fstatSync(fd).ino;
    return null;
  } catch (error) {
    if (isNoSpace(error)) return spaceProblem(r.file, r.after.length, freeBytes(r.file.dir.realPath()));
    return `${r.file.rel}: writing the new file failed (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was changed`;
  } finally {
    closeSync(fd);
  }
}

/** The old file's bytes for /undo and a rollback: a hard link of the very file that was read, else a copy. */
function keepBackup(r: Replacement, path: string): string | null {
  try {
    linkSync(r.file.dir.child(r.file.name), path);
    if (lstatSync(path).ino === r.file.ino) return null;
    // The name no longer holds the file that was read: it changed meanwhile.
    unlinkSync(path);
    return `${r.file.rel} changed while the patch was applied; nothing was changed`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${r.file.rel} disappeared while the patch was applied; nothing was changed`;
  }
  try {
    const fd = createExclusive(path);
    try {
      writeAll(fd, r.before);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return null;
  } catch (error) {
    if (isNoSpace(error))
      return (
        `not enough space in .autopatch-j/ to keep the old bytes of ${r.file.rel} (${formatBytes(r.before.length)}); ` +
        'nothing was changed'
      );
    return `cannot keep the old bytes of ${r.file.rel} (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was changed`;
  }
}

/** Renames every temp file over its target; on a problem, puts back what was switched and returns why. */
function switchAll(root: ProjectDir, journal: Journal, replacements: readonly Replacement[], repoRoot: string): string | null {
  const done: number[] = [];
  for (let n = 0; n < replacements.length; n += 1) {
    const r = replacements[n]!;
    const entry = journal.files[n]!;
    const now = entryAt(r.file.dir, r.file.name);
    let problem: string | null = null;
    if (!now || !now.file || now.ino !== r.file.ino)
      problem = `${r.file.rel} changed while the patch was applied (it was replaced or became a link)`;
    else if (!insideRoot(root, r.file.dir)) problem = `${r.file.rel} is not inside the project any more (a folder on its path was moved)`;
    if (problem === null) {
      try {
        renameSync(r.file.dir.child(entry.temp), r.file.dir.child(r.file.name));
        done.push(n);
        continue;
      } catch (error) {
        problem = `${r.file.rel}: the rename failed (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      }
    }
    rollBack(repoRoot, journal, replacements, done);
    return `${problem}; every file was put back as it was`;
  }
  for (const dir of new Set(replacements.map((r) => r.file.dir))) fsyncDir(dir);
  return null;
}

/** Restores the switched files from their kept bytes and removes the transaction (its temp files too). */
function rollBack(repoRoot: string, journal: Journal, replacements: readonly Replacement[], switched: number[]): void {
  const folder = transactionDir(repoRoot, journal.id);
  for (const n of [...switched].reverse()) {
    const r = replacements[n]!;
    restoreBackup(r.file.dir, r.file.name, join(folder, journal.files[n]!.backup), r.before, r.file.mode);
  }
  discard(repoRoot, journal, replacements);
}

/**
 * Puts the kept bytes back at `name` through a new temp file renamed over it (the backup stays until the
 * transaction folder goes): a hard link of the backup where possible, else a copy of `bytes`.
 */
export function restoreBackup(dir: ProjectDir, name: string, backupPath: string, bytes: Buffer | null, mode: number): void {
  const temp = tempNameFor(name);
  try {
    linkSync(backupPath, dir.child(temp));
  } catch {
    const fd = createExclusive(dir.child(temp), mode & 0o777);
    try {
      writeAll(fd, bytes ?? readNoFollow(backupPath));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  renameSync(dir.child(temp), dir.child(name));
  fsyncDir(dir);
}

/** Removes the temp files and the transaction folder: nothing of the transaction stays. */
function discard(repoRoot: string, journal: Journal, replacements: readonly Replacement[]): void {
  for (let n = 0; n < replacements.length; n += 1) {
    try {
      unlinkSync(replacements[n]!.file.dir.child(journal.files[n]!.temp));
    } catch {
      // Never created.
    }
  }
  removeTransaction(repoRoot, journal.id);
}

/** After a commit only the newest apply is kept for /undo (an undo also removes the apply it undid). */
function pruneOthers(repoRoot: string, keep: string, undone: string | null): void {
  for (const id of listTransactions(repoRoot)) {
    if (id === keep) continue;
    const journal = readJournal(repoRoot, id);
    // Another process's transaction in flight is never touched.
    if (journal && journal.state !== 'committed' && id !== undone) continue;
    rmSync(transactionDir(repoRoot, id), { recursive: true, force: true });
  }
}
