import { z } from 'zod';
import { describePatch } from '../../workspace/review-workspace.js';
import { defineTool } from './tool.js';

export const showPatch = defineTool({
  name: 'show_patch',
  description: 'Show the pending patch.',
  schema: z.strictObject({}),
  run(_args, { workspace }) {
    return workspace.pendingPatch ? describePatch(workspace.pendingPatch) : 'There is no pending patch.';
  },
});
