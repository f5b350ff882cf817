import { z } from 'zod';
import { Edit, checkEdits } from './patch-edits.js';
import { defineTool } from './tool.js';

export const proposePatch = defineTool({
  name: 'propose_patch',
  description: 'Propose a patch as search/replace edits. It stays pending until the user runs /apply or /discard.',
  schema: z.strictObject({ summary: z.string().min(1).max(500), edits: z.array(Edit).min(1).max(50) }),
  run({ summary, edits }, { repoRoot, workspace }) {
    const problems = checkEdits(repoRoot, edits);
    if (problems.length > 0) return `Error: patch refused:\n- ${problems.join('\n- ')}`;
    const patch = workspace.proposePatch(summary, edits);
    return `Pending patch #${patch.id} recorded with ${edits.length} edit(s). The user applies it with /apply.`;
  },
});
