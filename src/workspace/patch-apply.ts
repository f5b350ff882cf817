import { readNoFollow } from '../shared/private-files.js';
import { join } from 'node:path';
import { lastCommittedApply, transactionDir } from './apply-journal.js';
import { type Replacement, runTransaction, sha256 } from './apply-transaction.js';
import { applyByteEdits } from './byte-edits.js';
import { type OpenedFile, type ProjectDir, ProjectPathError, closeOpened, openProjectFile, openRoot, readOpened } from './project-files.js';

/** One search/replace edit of a patch. */
export interface FileEdit {
  path: string;
  search: string;
  replace: string;
}

/** A patch worked out on the files as they are: every file's bytes now and after the patch, or the problems. */
export interface PatchPlan {
  files: { path: string; before: Buffer; after: Buffer }[];
  problems: string[];
}

export type ApplyResult = { applied: true; files: string[] } | { applied: false; problems: string[] };
export type UndoResult = { undone: true; files: string[]; patchId: number | null } | { undone: false; problems: string[] };

function message(error: unknown): string {
  if (error instanceof ProjectPathError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `cannot read the file (${code})` : String(error);
}

/**
 * Opens and reads every file the edits touch (without following links, inside the project, never `.git/` or
 * `.autopatch-j/`) and applies the edits to their bytes in order. The opened files stay open for the caller
 * (`release` closes them), so the transaction replaces exactly the files that were read.
 */
function openPlan(
  repoRoot: string,
  edits: readonly FileEdit[],
): { root: ProjectDir | null; opened: Replacement[]; problems: string[]; release: () => void } {
  const problems: string[] = [];
  const byFile = new Map<string, { file: OpenedFile; before: Buffer; edits: FileEdit[]; shown: string }>();
  let root: ProjectDir | null = null;
  const release = (): void => {
    for (const entry of byFile.values()) closeOpened(entry.file, root!);
    root?.close();
  };
  try {
    root = openRoot(repoRoot);
  } catch (error) {
    return { root: null, opened: [], problems: [`the repository cannot be opened: ${message(error)}`], release: () => undefined };
  }
  const refused = new Set<string>();
  for (const edit of edits) {
    if (refused.has(edit.path)) continue;
    let file: OpenedFile;
    try {
      file = openProjectFile(root, edit.path);
    } catch (error) {
      problems.push(`${edit.path}: ${message(error)}`);
      refused.add(edit.path);
      continue;
    }
    const same = byFile.get(file.rel);
    if (same) {
      closeOpened(file, root);
      same.edits.push(edit);
      continue;
    }
    let before: Buffer;
    try {
      before = readOpened(file);
    } catch (error) {
      closeOpened(file, root);
      problems.push(`${edit.path}: ${message(error)}`);
      refused.add(edit.path);
      continue;
    }
    byFile.set(file.rel, { file, before, edits: [edit], shown: edit.path });
  }
  const opened: Replacement[] = [];
  for (const entry of byFile.values()) {
    const result = applyByteEdits(entry.before, entry.edits);
    if (!result.ok) problems.push(`${entry.shown}: ${result.problem}`);
    else opened.push({ file: entry.file, before: entry.before, after: result.bytes });
  }
  return { root, opened, problems, release };
}

/** Works out a patch without writing anything (`/patch` shows it, `propose_patch` checks it). */
export function planPatch(repoRoot: string, edits: readonly FileEdit[]): PatchPlan {
  const plan = openPlan(repoRoot, edits);
  try {
    return { files: plan.opened.map((r) => ({ path: r.file.rel, before: r.before, after: r.after })), problems: plan.problems };
  } finally {
    plan.release();
  }
}

/** Applies a patch's edits all together or not at all (see apply-transaction). */
export function applyEdits(
  repoRoot: string,
  edits: readonly FileEdit[],
  meta: { patchId: number; summary: string; now: number },
): ApplyResult {
  const plan = openPlan(repoRoot, edits);
  try {
    if (plan.problems.length > 0 || !plan.root) return { applied: false, problems: plan.problems };
    const result = runTransaction(repoRoot, plan.root, plan.opened, { kind: 'apply', undoes: null, ...meta });
    return result.ok ? { applied: true, files: result.files } : { applied: false, problems: result.problems };
  } finally {
    plan.release();
  }
}

/**
 * `/undo`: puts back the bytes the last apply replaced, exactly, in one transaction — refused when any of
 * its files changed since (undo would lose that change) or its kept bytes are not intact.
 */
export function undoLastApply(repoRoot: string, now: number): UndoResult {
  const last = lastCommittedApply(repoRoot);
  if (!last) return { undone: false, problems: ['there is no applied patch to undo'] };
  const label = last.patchId !== null ? `patch #${last.patchId}` : 'the last patch';
  let root: ProjectDir;
  try {
    root = openRoot(repoRoot);
  } catch (error) {
    return { undone: false, problems: [`the repository cannot be opened: ${message(error)}`] };
  }
  const opened: Replacement[] = [];
  const problems: string[] = [];
  try {
    for (const f of last.files) {
      let file: OpenedFile;
      try {
        file = openProjectFile(root, f.path);
      } catch (error) {
        problems.push(`${f.path}: ${message(error)}`);
        continue;
      }
      const current = readOpened(file);
      if (current.length !== f.newSize || sha256(current) !== f.newSha256) {
        closeOpened(file, root);
        problems.push(`${f.path} changed since ${label} was applied; undo would lose that change`);
        continue;
      }
      let kept: Buffer;
      try {
        kept = readNoFollow(join(transactionDir(repoRoot, last.id), f.backup));
      } catch {
        kept = Buffer.alloc(0);
      }
      if (kept.length !== f.oldSize || sha256(kept) !== f.oldSha256) {
        closeOpened(file, root);
        problems.push(`the bytes of ${f.path} before ${label} are no longer intact in .autopatch-j/apply/; undo is not possible`);
        continue;
      }
      opened.push({ file, before: current, after: kept });
    }
    if (problems.length > 0) return { undone: false, problems };
    const result = runTransaction(repoRoot, root, opened, {
      kind: 'undo',
      patchId: last.patchId,
      summary: last.summary,
      undoes: last.id,
      now,
    });
    return result.ok ? { undone: true, files: result.files, patchId: last.patchId } : { undone: false, problems: result.problems };
  } finally {
    for (const r of opened) closeOpened(r.file, root);
    root.close();
  }
}
