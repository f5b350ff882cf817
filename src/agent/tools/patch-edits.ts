import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { resolveInRepo } from '../../workspace/repo-paths.js';
import type { PatchEdit } from '../../workspace/review-workspace.js';

export const Edit = z.strictObject({
  path: z.string().min(1),
  search: z.string().min(1).describe('Exact text that occurs once in the file now'),
  replace: z.string(),
});

/** Every edit must match its file exactly once now, or the patch is refused with the reasons. */
export function checkEdits(repoRoot: string, edits: PatchEdit[]): string[] {
  const problems: string[] = [];
  for (const edit of edits) {
    try {
      const text = readFileSync(resolveInRepo(repoRoot, edit.path), 'utf8');
      const first = text.indexOf(edit.search);
      if (first < 0) problems.push(`${edit.path}: search text not found`);
      else if (text.indexOf(edit.search, first + 1) >= 0) problems.push(`${edit.path}: search text occurs more than once; include more context`);
    } catch (error) {
      problems.push(`${edit.path}: ${(error as Error).message}`);
    }
  }
  return problems;
}

