import { z } from 'zod';
import { defineMcpTool } from './mcp-tool.js';

/** `memory_forget` (M-6.3), offered only when the server runs with `--allow-forget`. */
export const memoryForgetTool = defineMcpTool({
  name: 'memory_forget',
  title: 'Forget one memory',
  description:
    'Forget one memory by id (a unique prefix of 4+ characters works) when the user asks for it: it leaves search and ' +
    'the routing context at once and its old evidence can never rebuild it. The RAW conversation turns are kept; a new ' +
    "explicit statement by the user can form a new memory later. Only do this on the user's explicit request.",
  input: z.strictObject({ id: z.string().min(4).max(64) }),
  output: z.object({
    id: z.string(),
    kind: z.string(),
    title: z.string(),
    suppressed_candidates: z.number(),
    raw_turns_kept: z.literal(true),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ id }, { host }) {
    const memory = await host.current();
    const result = memory.forget(id);
    return {
      id: result.id,
      kind: result.kind,
      title: result.title,
      suppressed_candidates: result.suppressedCandidates,
      raw_turns_kept: true as const,
    };
  },
});
