import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { InFlight } from '../in-flight.js';
import type { MemoryHost } from '../memory-host.js';
import { errorText } from '../recovery.js';

/** What a tool may use: the Memory of this server's project and the server's settings. */
export interface McpToolContext {
  host: MemoryHost;
  /** AUTOPATCH_DEBUG: RAW errors in status. */
  debug: boolean;
  /** Every call is tracked, so none is cut off when the client disconnects. */
  inFlight: InFlight;
}

/** One MCP tool: zod input and output schemas and a run function that returns the structured result. */
export interface McpTool<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.infer<I>, context: McpToolContext): Promise<z.infer<O>> | z.infer<O>;
}

export function defineMcpTool<I extends z.ZodObject, O extends z.ZodObject>(tool: McpTool<I, O>): McpTool<I, O> {
  return tool;
}

/**
 * Registers a tool. Its result is the structured JSON (`structuredContent`) and the same JSON as text for
 * clients that read only text; every string from Memory stays inside that JSON, as data. A failure is an
 * MCP tool error (`isError: true`) whose text says what happened and what to do.
 */
export function registerMcpTool<I extends z.ZodObject, O extends z.ZodObject>(
  server: McpServer,
  tool: McpTool<I, O>,
  context: McpToolContext,
): void {
  const handler = (args: z.infer<I>): Promise<CallToolResult> =>
    context.inFlight.track(async () => {
      try {
        const result = (await tool.run(args, context)) as Record<string, unknown>;
        return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
      } catch (error) {
        return { content: [{ type: 'text', text: errorText(tool.name, error, context.host.repoRoot) }], isError: true };
      }
    });
  server.registerTool(
    tool.name,
    { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations },
    // The SDK infers the argument type from the schema; ours is the same zod object.
    handler as never,
  );
}
