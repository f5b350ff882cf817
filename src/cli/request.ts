import { PROVIDER_SETUP_HINT } from '../config/config.js';
import { LlmCallError, rawDiagnostic, shortFailure } from '../llm/diagnostics.js';
import { MemorySchemaError, describeError } from '../shared/errors.js';
import { EXIT } from './commands/command-output.js';
import type { CliContext } from './context.js';
import { literal } from './output.js';
import { degradedHelp } from './render/memory-views.js';
import { Spinner } from './render/spinner.js';

/**
 * Serves one non-slash input: route it, stream the answer to stdout, and explain failures. Normal mode
 * shows one short line for a model failure; AUTOPATCH_DEBUG=true shows the RAW diagnostics literally.
 */
export async function runRequest(ctx: CliContext, input: string, signal?: AbortSignal): Promise<number> {
  const { output } = ctx;
  if (!ctx.agent) {
    output.err(`${PROVIDER_SETUP_HINT}\n`);
    return EXIT.failure;
  }
  const debug = ctx.config.debug;
  const spinner = new Spinner(output.control, output.interactive);
  spinner.start('thinking…');
  let streamed = false;
  try {
    const result = await ctx.agent.handle(input, {
      ...(signal ? { signal } : {}),
      events: {
        onRoute: (route) => {
          if (!debug) return;
          spinner.stop();
          output.err(`[debug] route: ${route.intent}${route.fallback ? ` (fallback: ${literal(route.fallback.reason)})` : ''}\n`);
          if (route.fallback) output.err(`${literal(route.fallback.raw)}\n`);
          spinner.start('thinking…');
        },
        onText: (delta) => {
          spinner.stop();
          streamed = true;
          output.out(literal(delta));
        },
        onTool: (name, args) => {
          spinner.stop();
          if (debug) output.err(`[debug] tool ${name} ${literal(args.slice(0, 300))}\n`);
          spinner.start(`${name}…`);
        },
      },
    });
    spinner.stop();
    if (!streamed) output.out(literal(result.text));
    output.out('\n');
    if (result.route.fallback && !debug) output.err('(the intent classifier failed; the request went to the general assistant)\n');
    return EXIT.ok;
  } catch (error) {
    spinner.stop();
    if (streamed) output.out('\n');
    if (error instanceof MemorySchemaError) {
      output.err(`${degradedHelp(error.reason)}\n`);
      return EXIT.degraded;
    }
    if (signal?.aborted) {
      output.err('Cancelled. The request was stopped; its turn is kept as failed.\n');
      return EXIT.failure;
    }
    if (error instanceof LlmCallError) {
      output.err(`Request failed: ${shortFailure(error)}.${debug ? '' : ' Run with AUTOPATCH_DEBUG=true to see the RAW error.'}\n`);
      if (debug) output.err(`${literal(rawDiagnostic(error))}\n`);
      return EXIT.failure;
    }
    output.err(`Request failed: ${literal(describeError(error))}\n`);
    return EXIT.failure;
  }
}
