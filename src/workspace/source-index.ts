import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SKIPPED_DIRS } from './repo-paths.js';
import type { ReviewWorkspace } from './review-workspace.js';

/** Files listed at most; a larger repository is listed in part (list_files says so). */
export const SOURCE_INDEX_LIMIT = 20_000;

/**
 * Every file of the repository (repo-relative, forward slashes), without the skipped folders and without
 * following symlinked folders. Cached in the workspace until /reset or an applied patch.
 */
export function sourceIndex(workspace: ReviewWorkspace): string[] {
  if (workspace.sourceIndex) return workspace.sourceIndex;
  const root = workspace.repoRoot;
  const out: string[] = [];
  const pending = [root];
  while (pending.length > 0 && out.length < SOURCE_INDEX_LIMIT) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const entry of entries) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
    }
  }
  out.sort();
  workspace.sourceIndex = out;
  return out;
}
