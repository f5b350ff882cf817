import { z } from 'zod';
import { Edit, checkEdits } from './patch-edits.js';
import { defineTool } from './tool.js';

export const revisePatch = defineTool({
  name: 'revise_patch',
  description: 'Replace the edits of the pending patch with revised search/replace edits.',
  schema: z.strictObject({ summary: z.string().min(1).max(500).optional(), edits: z.array(Edit).min(1).max(50) }),
  run({ summary, edits }, { repoRoot, workspace }) {
    if (!workspace.pendingPatch) return 'Error: there is no pending patch to revise; propose one with propose_patch.';
    const problems = checkEdits(repoRoot, edits);
    if (problems.length > 0) return `Error: revision refused:\n- ${problems.join('\n- ')}`;
    const patch = workspace.revisePatch(summary, edits);
    return `Pending patch #${patch.id} revised (revision ${patch.revisions}).`;
  },
});
