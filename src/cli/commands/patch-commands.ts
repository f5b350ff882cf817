import { ReviewWorkspace } from '../../workspace/review-workspace.js';
import { pendingPatchPath } from '../../memory/paths.js';
import { StartupError, resolveRepo } from '../context.js';
import { recoveryLines } from './patch-recovery.js';
import { type Output, literal } from '../output.js';
import { renderPatch } from '../render/patch-view.js';
import { styleFor } from '../render/style.js';
import { type CommandOutput, EXIT, type Surface, failure, invocation, ok } from './command-output.js';

/** `/patch`: the pending patch as a coloured unified diff, ending with how to apply or drop it from `surface`. */
export function showPatch(
  workspace: ReviewWorkspace,
  output: Pick<Output, 'color' | 'outTerminal' | 'interactive'>,
  surface: Surface = 'session',
): CommandOutput {
  const patch = workspace.pendingPatch;
  if (!patch) return ok('There is no pending patch.', { pendingPatch: null });
  const hints = { apply: invocation('apply', surface), discard: invocation('discard', surface) };
  return { ...ok(renderPatch(workspace.repoRoot, patch, styleFor(output), hints), { pendingPatch: patch }), rich: true };
}

/** `/apply`: all edits or none; each search text must match exactly once. */
export function applyPatch(workspace: ReviewWorkspace): CommandOutput {
  const patch = workspace.pendingPatch;
  if (!patch) return failure('There is no pending patch.');
  const result = workspace.applyPatch();
  if (result.applied)
    return ok(`Applied patch #${patch.id} to ${result.files.length} file(s).`, { applied: true, id: patch.id, files: result.files });
  return failure(`Patch #${patch.id} was not applied; nothing changed:\n- ${result.problems.map(literal).join('\n- ')}`, EXIT.failure, {
    applied: false,
    id: patch.id,
    problems: result.problems,
  });
}

/** `/undo`: the files the last apply changed, back byte for byte; refused when one changed since. */
export function undoPatch(workspace: ReviewWorkspace): CommandOutput {
  const result = workspace.undoLastApply();
  if (result.undone) {
    const which = result.patchId !== null ? `patch #${result.patchId}` : 'the last patch';
    return ok(`Undid ${which}: ${result.files.length} file(s) restored as they were before it was applied.`, {
      undone: true,
      id: result.patchId,
      files: result.files,
    });
  }
  return failure(`Nothing was undone:\n- ${result.problems.map(literal).join('\n- ')}`, EXIT.failure, {
    undone: false,
    problems: result.problems,
  });
}

export function discardPatch(workspace: ReviewWorkspace): CommandOutput {
  const patch = workspace.pendingPatch;
  return workspace.discardPatch()
    ? ok(`Discarded the pending patch #${patch!.id}.`, { discarded: true })
    : failure('There is no pending patch.');
}

/** `autopatch-j patch|apply|discard|undo`: the patch an earlier `ask` or session left; Memory is not opened. */
export async function patchOutsideSession(
  name: 'patch' | 'apply' | 'discard' | 'undo',
  options: { repo: string | undefined; output: Output },
): Promise<CommandOutput> {
  let root: string;
  try {
    root = resolveRepo(options.repo);
  } catch (error) {
    if (error instanceof StartupError) return failure(`autopatch-j: ${error.message}`, EXIT.usage);
    throw error;
  }
  const workspace = new ReviewWorkspace(root, { patchFile: pendingPatchPath(root) });
  for (const line of recoveryLines(workspace)) options.output.err(`${line}\n`);
  if (name === 'patch') return showPatch(workspace, options.output, 'shell');
  if (name === 'apply') return applyPatch(workspace);
  if (name === 'undo') return undoPatch(workspace);
  return discardPatch(workspace);
}
