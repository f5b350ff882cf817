import { lastCommittedApply, readRecoveryNote } from '../../workspace/apply-journal.js';
import { ReviewWorkspace } from '../../workspace/review-workspace.js';
import { pendingPatchPath } from '../../memory/paths.js';
import { literal } from '../output.js';

/** One line per apply or undo a crash interrupted and the start-up completed or rolled back. */
export function recoveryLines(workspace: ReviewWorkspace): string[] {
  return workspace.recovered.map((note) => {
    const what = note.kind === 'undo' ? 'an undo' : note.patchId !== null ? `applying patch #${note.patchId}` : 'an apply';
    const done = note.action === 'rolled_forward' ? 'completed' : note.action === 'rolled_back' ? 'rolled back' : 'left alone';
    return `A crash interrupted ${what} (${note.files.length} file(s)); it was ${done} now: ${literal(note.detail)}.`;
  });
}

/**
 * For `doctor`: applies or undos a crash interrupted (completed or rolled back now, or at an earlier start),
 * and whether a patch can be undone.
 */
export function patchesCheck(root: string): { name: string; ok: boolean; detail: string; fix: string | null } {
  const workspace = new ReviewWorkspace(root, { patchFile: pendingPatchPath(root) });
  const note = workspace.recovered.at(-1) ?? readRecoveryNote(root);
  const parts: string[] = [];
  if (note) {
    const what = note.kind === 'undo' ? 'an undo' : note.patchId !== null ? `applying patch #${note.patchId}` : 'an apply';
    const done = note.action === 'rolled_forward' ? 'completed' : 'rolled back';
    parts.push(`a crash interrupted ${what} at ${new Date(note.at).toISOString()}; the next start ${done} it (${literal(note.detail)})`);
  }
  const last = lastCommittedApply(root);
  parts.push(last ? `/undo can put back patch #${last.patchId ?? '?'} (${last.files.length} file(s))` : 'no applied patch to undo');
  if (workspace.pendingPatch) parts.push(`patch #${workspace.pendingPatch.id} is pending`);
  return { name: 'patches', ok: true, detail: parts.join('; '), fix: null };
}
