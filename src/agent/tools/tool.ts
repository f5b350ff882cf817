import { z } from 'zod';
import type { ToolCall, ToolSchema } from '../../llm/types.js';
import type { MemoryManager } from '../../memory/manager.js';
import type { MemoriesUsed, TurnHandle } from '../../memory/types.js';
import type { ReviewWorkspace } from '../../workspace/review-workspace.js';

/** What a tool may touch. Memory is present only for ordinary requests, bound to their turn (M-3.3). */
export interface ToolContext {
  repoRoot: string;
  workspace: ReviewWorkspace;
  /** `used` records what the memory tools searched and read (`/why`). */
  memory?: { manager: MemoryManager; handle: TurnHandle; used?: MemoriesUsed };
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: S;
  run(args: z.infer<S>, context: ToolContext): string | Promise<string>;
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** Tool output handed back to the model is bounded; the model can ask for a narrower range. */
export const TOOL_OUTPUT_LIMIT = 12_000;

/** The JSON Schema a model sees, generated from the zod schema. */
export function toolSchema(tool: Tool): ToolSchema {
  const parameters = z.toJSONSchema(tool.schema, { target: 'draft-7' }) as Record<string, unknown>;
  delete parameters['$schema'];
  return { name: tool.name, description: tool.description, parameters };
}

/**
 * Runs one tool call. Unknown tools, unparsable or invalid arguments and tool failures come back as text
 * the model can read and correct; they never break the loop.
 */
export async function runToolCall(tools: readonly Tool[], call: ToolCall, context: ToolContext): Promise<string> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return `Error: there is no tool named '${call.name}'. Available tools: ${tools.map((t) => t.name).join(', ')}.`;
  let input: unknown;
  try {
    input = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (error) {
    return `Error: the arguments of ${call.name} are not valid JSON (${(error as Error).message}). Send a JSON object.`;
  }
  const parsed = tool.schema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
    return `Error: invalid arguments for ${call.name}: ${issues}.`;
  }
  try {
    const output = await tool.run(parsed.data, context);
    return output.length <= TOOL_OUTPUT_LIMIT
      ? output
      : `${output.slice(0, TOOL_OUTPUT_LIMIT)}\n[output cut at ${TOOL_OUTPUT_LIMIT} characters; ask for a narrower range]`;
  } catch (error) {
    return `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
