import { structuredPatch } from 'diff';
import { type PendingPatch, describePatch, planChanges } from '../../workspace/review-workspace.js';
import { literal } from '../output.js';
import type { Style } from './style.js';

/** Lines added and removed by a patch, per file and in all. */
export interface PatchStats {
  files: number;
  added: number;
  removed: number;
}

/** `/patch`: a unified diff with three lines of context and line numbers; the search/replace form if the files moved on. */
export function renderPatch(repoRoot: string, patch: PendingPatch, style: Style, hints = { apply: '/apply', discard: '/discard' }): string {
  const { plan, changes } = planChanges(repoRoot, patch.edits);
  const head = style.bold(
    `Pending patch #${patch.id}${patch.revisions > 0 ? ` (revision ${patch.revisions})` : ''}: ${literal(patch.summary)}`,
  );
  if (plan.problems.length > 0) {
    return (
      `${literal(describePatch(patch))}\n\n` +
      `${style.yellow(`It no longer applies as it is:\n- ${plan.problems.map(literal).join('\n- ')}`)}`
    );
  }
  const out: string[] = [head];
  for (const change of changes) {
    const diff = structuredPatch(change.path, change.path, change.before, change.after, '', '', { context: 3 });
    out.push('', style.bold(`--- a/${literal(change.path)}`), style.bold(`+++ b/${literal(change.path)}`));
    for (const hunk of diff.hunks) {
      out.push(style.cyan(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      const width = String(Math.max(hunk.oldStart + hunk.oldLines, hunk.newStart + hunk.newLines)).length;
      const num = (n: number | null): string => (n === null ? ' '.repeat(width) : String(n).padStart(width));
      for (const line of hunk.lines) {
        if (line.startsWith('\\')) continue;
        const body = literal(line.slice(1));
        if (line.startsWith('-')) out.push(style.red(`${num(oldLine++)} ${num(null)} -${body}`));
        else if (line.startsWith('+')) out.push(style.green(`${num(null)} ${num(newLine++)} +${body}`));
        else out.push(style.dim(`${num(oldLine++)} ${num(newLine++)}  `) + body);
      }
    }
  }
  out.push('', style.dim(`${hints.apply} writes it, ${hints.discard} drops it.`));
  return out.join('\n');
}

export function patchStats(repoRoot: string, patch: PendingPatch): PatchStats {
  const { changes } = planChanges(repoRoot, patch.edits);
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    for (const hunk of structuredPatch(change.path, change.path, change.before, change.after, '', '', { context: 0 }).hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added += 1;
        else if (line.startsWith('-')) removed += 1;
      }
    }
  }
  return { files: changes.length || new Set(patch.edits.map((e) => e.path)).size, added, removed };
}

/** `patch #3 pending · 1 file +1 −0 · /patch /apply /discard` */
export function pendingPatchLine(repoRoot: string, patch: PendingPatch, commands: string, style: Style): string {
  const s = patchStats(repoRoot, patch);
  return (
    `${style.bold(`patch #${patch.id} pending`)} · ${s.files} file${s.files === 1 ? '' : 's'} ` +
    `${style.green(`+${s.added}`)} ${style.red(`−${s.removed}`)} · ${commands}`
  );
}
