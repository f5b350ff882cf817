import { existsSync, lstatSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { applyDir } from '../memory/paths.js';
import {
  type Journal,
  type RecoveryNote,
  acquireApplyLock,
  listTransactions,
  readJournal,
  removeTransaction,
  transactionDir,
  writeJournal,
  writeRecoveryNote,
} from './apply-journal.js';
import { restoreBackup } from './apply-transaction.js';
import { type ProjectDir, entryAt, openFolderOf, openRoot } from './project-files.js';

/**
 * Start-up recovery of applies and undos a crash interrupted (issue "Safe hands", item 1): a transaction
 * still `preparing` changed no project file, so its temp files are removed; one `prepared` is completed
 * (every temp file still there is renamed over a target that is still the old file), or, when a target has
 * changed since, rolled back from the kept bytes so the patch is all old again. Each outcome is written to
 * `.autopatch-j/apply/last-recovery.json`, which `doctor` shows. Nothing runs while another live process
 * holds the apply lock.
 */
export function recoverTransactions(repoRoot: string, now: number): RecoveryNote[] {
  if (!existsSync(applyDir(repoRoot))) return [];
  // Read first: a start with only the last apply's record (the usual case) takes no lock and writes nothing.
  const ids = listTransactions(repoRoot).filter((id) => {
    const journal = readJournal(repoRoot, id);
    return journal === null || journal.state !== 'committed' || journal.kind === 'undo';
  });
  if (ids.length === 0) return [];
  const lock = acquireApplyLock(repoRoot);
  if ('heldBy' in lock) return [];
  const notes: RecoveryNote[] = [];
  try {
    for (const id of ids) {
      const journal = readJournal(repoRoot, id);
      if (!journal) {
        // A folder whose journal was never written held no temp file yet: the crash changed nothing.
        if (!existsSync(join(transactionDir(repoRoot, id), 'journal.json'))) removeTransaction(repoRoot, id);
        continue;
      }
      if (journal.state === 'committed') {
        if (journal.kind === 'undo') finishUndo(repoRoot, journal);
        continue;
      }
      const note = recoverOne(repoRoot, journal, now);
      if (note) {
        notes.push(note);
        writeRecoveryNote(repoRoot, note);
      }
    }
  } finally {
    lock.release();
  }
  return notes;
}

interface FileState {
  dir: ProjectDir;
  name: string;
  /** What the target is now. */
  target: 'old' | 'new' | 'other' | 'missing';
  tempThere: boolean;
}

function recoverOne(repoRoot: string, journal: Journal, now: number): RecoveryNote | null {
  const base = { id: journal.id, kind: journal.kind, patchId: journal.patchId, files: journal.files.map((f) => f.path), at: now };
  let root: ProjectDir;
  try {
    root = openRoot(repoRoot);
  } catch {
    return null;
  }
  const states: (FileState | null)[] = [];
  try {
    for (const f of journal.files) {
      try {
        const { dir, name } = openFolderOf(root, f.path);
        const cur = entryAt(dir, name);
        const temp = entryAt(dir, f.temp);
        const target = !cur ? 'missing' : cur.ino === f.newIno && f.newIno !== 0 ? 'new' : cur.ino === f.oldIno ? 'old' : 'other';
        states.push({ dir, name, target, tempThere: temp !== null && temp.ino === f.newIno && f.newIno !== 0 });
      } catch {
        states.push(null);
      }
    }
    if (journal.state === 'preparing') {
      removeTemps(journal, states);
      removeTransaction(repoRoot, journal.id);
      return { ...base, action: 'rolled_back', detail: 'the crash came before any file was replaced; every file is as it was' };
    }
    const forward = states.every(
      (s) => s !== null && (s.target === 'new' || (s.tempThere && (s.target === 'old' || s.target === 'missing'))),
    );
    if (forward) {
      journal.files.forEach((f, n) => {
        const s = states[n]!;
        if (s.target !== 'new') renameSync(s.dir.child(f.temp), s.dir.child(s.name));
      });
      journal.state = 'committed';
      writeJournal(repoRoot, journal);
      if (journal.kind === 'undo') finishUndo(repoRoot, journal);
      return { ...base, action: 'rolled_forward', detail: 'the crash came while files were being replaced; the rest were replaced' };
    }
    // A target changed since the crash: put back every file that was switched, leave the changed one alone.
    const folder = transactionDir(repoRoot, journal.id);
    const changed: string[] = [];
    journal.files.forEach((f, n) => {
      const s = states[n];
      if (!s) return;
      if (s.target === 'new') restoreBackup(s.dir, s.name, join(folder, f.backup), null, f.mode);
      else if (s.target === 'other') changed.push(f.path);
    });
    removeTemps(journal, states);
    removeTransaction(repoRoot, journal.id);
    return {
      ...base,
      action: 'rolled_back',
      detail:
        changed.length > 0
          ? `${changed.join(', ')} changed after the crash and ${changed.length === 1 ? 'was' : 'were'} left as found; ` +
            'the other files are as before the patch'
          : 'the new files were incomplete; every file is as before the patch',
    };
  } finally {
    for (const s of states) if (s && s.dir !== root) s.dir.close();
    root.close();
  }
}

function removeTemps(journal: Journal, states: readonly (FileState | null)[]): void {
  journal.files.forEach((f, n) => {
    const s = states[n];
    if (!s) return;
    try {
      if (lstatSync(s.dir.child(f.temp)).isFile()) unlinkSync(s.dir.child(f.temp));
    } catch {
      // Not there.
    }
  });
}

/** A committed undo removes the apply it undid, then itself. */
function finishUndo(repoRoot: string, journal: Journal): void {
  if (journal.undoes) removeTransaction(repoRoot, journal.undoes);
  removeTransaction(repoRoot, journal.id);
}
