import { z } from 'zod';
import { type PatchEdit, planEdits } from '../../workspace/review-workspace.js';

export const Edit = z.strictObject({
  path: z.string().min(1),
  search: z.string().min(1).describe('Exact text that occurs once in the file now'),
  replace: z.string(),
});

/** Every edit must match its file exactly once now, or the patch is refused with the reasons. */
export function checkEdits(repoRoot: string, edits: PatchEdit[]): string[] {
  return planEdits(repoRoot, edits).problems;
}
