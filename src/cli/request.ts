import type { AgentResult } from '../agent/agent.js';
import { PROVIDER_SETUP_HINT } from '../config/config.js';
import { LlmCallError, rawDiagnostic } from '../llm/diagnostics.js';
import type { RetryNotice } from '../llm/guarded-client.js';
import type { TokenUsage } from '../llm/types.js';
import { MemorySchemaError, describeError } from '../shared/errors.js';
import { EXIT, exitCodeOf } from './commands/command-output.js';
import type { CliContext } from './context.js';
import { literal } from './output.js';
import { modelFailureText } from './render/errors.js';
import { loadMarkdown } from './render/markdown.js';
import { MarkdownStream } from './render/markdown-stream.js';
import { degradedHelp } from './render/memory-views.js';
import { pendingPatchLine } from './render/patch-view.js';
import { Spinner } from './render/spinner.js';
import { styleFor } from './render/style.js';
import { toolLine } from './render/tool-line.js';
import type { PendingPatch } from '../workspace/review-workspace.js';

export interface RequestOptions {
  signal?: AbortSignal;
  /** How the pending-patch line names its commands: slash commands in a session, subcommands for `ask`. */
  commands?: 'session' | 'ask';
  /** `ask --json`: nothing streams to stdout; the caller prints the result. */
  json?: boolean;
}

export interface RequestOutcome {
  exitCode: number;
  result: AgentResult | null;
  cancelled: boolean;
  /** The tokens the provider reported for this request's calls; null when it reported none. */
  usage: TokenUsage | null;
  /** One line saying why it failed, for `--json`. */
  error?: string;
}

const LABEL: Record<string, string> = {
  code_explain: 'reading the code…',
  general_chat: 'thinking…',
  code_audit: 'auditing…',
  patch_explain: 'reading the patch…',
  patch_revise: 'revising the patch…',
};

/**
 * Serves one non-slash input: route it, show the work (a spinner, one line per tool call), render the
 * answer (markdown on a colour terminal, plain text otherwise), then say what a repair run left behind.
 * A cancel (Ctrl-C, Esc, a closed stdout) fails the turn; normal mode shows one short line for a model
 * failure, AUTOPATCH_DEBUG=true the RAW diagnostics.
 */
export async function runRequest(ctx: CliContext, input: string, options: RequestOptions = {}): Promise<RequestOutcome> {
  const { output } = ctx;
  const signal = options.signal;
  const agent = await ctx.agent();
  if (!agent) {
    output.err(`${PROVIDER_SETUP_HINT}\n`);
    return { exitCode: EXIT.failure, result: null, cancelled: false, usage: null, error: 'no model provider is configured' };
  }
  const debug = ctx.config.debug;
  const style = styleFor(output, 'err');
  const spinner = new Spinner(output.control, output.interactive);
  const render = !options.json && output.outTerminal && output.color ? await loadMarkdown(output.columns()) : null;
  const markdown = render ? new MarkdownStream(render, output.outRich, output) : null;
  let streamed = false;
  let lineOpen = false;
  let retries = 0;
  const write = (text: string): void => {
    if (text.length === 0) return;
    streamed = true;
    if (markdown) markdown.push(text);
    else output.out(text);
    lineOpen = !text.endsWith('\n');
  };
  const endLine = (): void => {
    markdown?.flush();
    if (lineOpen) output.out('\n');
    lineOpen = false;
  };
  const before = { patch: ctx.workspace.pendingPatch, findings: ctx.workspace.findings.length };
  const onRetry = (notice: RetryNotice): void => {
    retries = notice.attempt;
    const what =
      `HTTP ${notice.status} from the provider, ` + `retrying in ${Math.ceil(notice.delayMs / 1000)}s (${notice.attempt}/${notice.of})…`;
    if (output.interactive) spinner.update(what);
    else output.err(`${what}\n`);
  };
  ctx.llm!.onRetry = onRetry;
  ctx.usage?.take();
  spinner.start('thinking…');
  try {
    const result = await agent.handle(input, {
      ...(signal ? { signal } : {}),
      events: {
        onRetry,
        onRoute: (route) => {
          spinner.update(LABEL[route.intent] ?? 'thinking…');
          if (!debug) return;
          spinner.stop();
          output.err(`[debug] route: ${route.intent}${route.fallback ? ` (fallback: ${literal(route.fallback.reason)})` : ''}\n`);
          if (route.fallback) output.err(`${literal(route.fallback.raw)}\n`);
          spinner.start(LABEL[route.intent] ?? 'thinking…');
        },
        onText: (delta) => {
          spinner.stop();
          if (!options.json) write(literal(delta));
        },
        onTool: (name, args) => {
          spinner.stop();
          if (!options.json) endLine();
          if (debug) output.err(`[debug] tool ${name} ${literal(args.slice(0, 300))}\n`);
          spinner.start(`${name}…`);
        },
        onToolResult: (name, args, toolOutput) => {
          spinner.stop();
          output.errRich(`${style.dim(`  ${toolLine(name, args, toolOutput, output.columns())}`)}\n`);
          spinner.start('thinking…');
        },
      },
    });
    spinner.stop();
    const usage = ctx.usage?.take() ?? null;
    if (!options.json) {
      if (!streamed) write(literal(result.text));
      endLine();
      if (usage) output.errRich(`${style.dim(usageLine(usage))}\n`);
    }
    if (result.route.fallback && !debug)
      output.errRich(`${style.dim('(the intent classifier failed; the request went to the general assistant)')}\n`);
    reportRepairWork(ctx, before, options.commands ?? 'session');
    return { exitCode: EXIT.ok, result, cancelled: false, usage };
  } catch (error) {
    spinner.stop();
    if (!options.json && streamed) endLine();
    if (error instanceof MemorySchemaError) {
      output.err(`${degradedHelp(error.reason)}\n`);
      return {
        exitCode: exitCodeOf(error),
        result: null,
        usage: ctx.usage?.take() ?? null,
        cancelled: false,
        error: `Memory is degraded: ${error.reason}`,
      };
    }
    if (signal?.aborted) {
      if (!output.closed)
        output.errRich(`${style.yellow('cancelled')}${style.dim(' — the request was stopped; its turn is kept as failed')}\n`);
      return { exitCode: EXIT.failure, result: null, usage: ctx.usage?.take() ?? null, cancelled: true, error: 'cancelled' };
    }
    if (error instanceof LlmCallError) {
      const text = modelFailureText(error, ctx.config.llm, { retried: retries });
      output.errRich(`${style.red(literal(text))}${debug ? '' : style.dim(' (AUTOPATCH_DEBUG=true shows the RAW error)')}\n`);
      if (debug) output.err(`${literal(rawDiagnostic(error))}\n`);
      return { exitCode: EXIT.failure, result: null, usage: ctx.usage?.take() ?? null, cancelled: false, error: text };
    }
    const text = `Request failed: ${literal(describeError(error))}`;
    output.err(`${text}\n`);
    return { exitCode: exitCodeOf(error), result: null, usage: ctx.usage?.take() ?? null, cancelled: false, error: text };
  } finally {
    ctx.llm!.onRetry = null;
  }
}

/** `tokens: 1,234 prompt · 56 completion`, the provider's own counts for one answer. */
export function usageLine(usage: TokenUsage): string {
  const n = (count: number): string => count.toLocaleString('en-US');
  return `tokens: ${n(usage.promptTokens)} prompt · ${n(usage.completionTokens)} completion`;
}

/** After a repair run: the pending patch in one line, and the new audit findings. */
function reportRepairWork(ctx: CliContext, before: { patch: PendingPatch | null; findings: number }, commands: 'session' | 'ask'): void {
  const style = styleFor(ctx.output, 'err');
  const findings = ctx.workspace.findings.slice(before.findings);
  if (findings.length > 0) {
    ctx.output.errRich(`${style.bold(`${findings.length} finding${findings.length === 1 ? '' : 's'}`)}\n`);
    for (const f of findings) {
      const severity = f.severity === 'high' ? style.red(f.severity) : f.severity === 'medium' ? style.yellow(f.severity) : f.severity;
      ctx.output.errRich(
        `  ${severity.padEnd(6)} ${literal(f.path)}${f.line !== null ? `:${f.line}` : ''}  ${literal(f.message.split('\n')[0])}\n`,
      );
    }
  }
  const patch = ctx.workspace.pendingPatch;
  if (patch && patch !== before.patch) {
    const names = commands === 'session' ? '/patch /apply /discard' : 'autopatch-j patch · apply · discard';
    ctx.output.errRich(`${pendingPatchLine(ctx.repoRoot, patch, names, style)}\n`);
    // A new proposal takes the place of one that was never applied: say so, it is gone.
    const replaced = before.patch;
    if (replaced && replaced.id !== patch.id)
      ctx.output.errRich(
        `${style.yellow(`patch #${patch.id} replaces patch #${replaced.id}`)} (${literal(replaced.summary)}), which was not applied\n`,
      );
  }
}
