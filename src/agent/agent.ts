import type { RetryNotice } from '../llm/guarded-client.js';
import type { ChatMessage, LlmClient, LlmPurpose } from '../llm/types.js';
import type { MemoryManager } from '../memory/manager.js';
import { type Intent, type MemoriesUsed, type OrdinaryIntent, type TurnRecord, isOrdinaryIntent } from '../memory/types.js';
import { loadProjectInstructions } from '../workspace/project-instructions.js';
import { type ReviewWorkspace, describePatch } from '../workspace/review-workspace.js';
import { type RouteDecision, classifyIntent } from './intent-router.js';
import { type Profile, ordinaryProfile, repairProfile } from './profiles.js';
import { type ToolContext, runToolCall, toolSchema } from './tools/tool.js';
import { attachReferences } from './attachments.js';
import { inWorkingFolder, withWorkingFolder } from './working-folder.js';

export interface AgentOptions {
  llm: LlmClient;
  /** The project's Memory; ordinary requests need it, repair requests never touch it. */
  memory: MemoryManager;
  repoRoot: string;
  workspace: ReviewWorkspace;
  /** Model rounds with tools before the agent must answer. */
  maxSteps?: number;
  /** The folder the user started in: AGENTS.md files from the project root down to it are read (default: the root). */
  instructionsFrom?: string;
  /** The repo-relative folder the user started in ('' or absent: the top). */
  workingFolder?: string;
}

export interface AgentEvents {
  onRoute?: (route: RouteDecision) => void;
  onText?: (delta: string) => void;
  onTool?: (name: string, argumentsText: string) => void;
  /** After a tool ran: what it handed back to the model (the CLI shows a short summary). */
  onToolResult?: (name: string, argumentsText: string, output: string) => void;
  /** Before a retry wait of the classifier (main calls report theirs through the guarded client). */
  onRetry?: (notice: RetryNotice) => void;
}

export interface AgentResult {
  intent: Intent;
  route: RouteDecision;
  text: string;
  /** The stored turn of an ordinary request; null for repair flows, which Memory never sees. */
  turn: TurnRecord | null;
  steps: number;
  toolCalls: number;
  /** The memories the answer was given, searched and read (`/why`); null for repair flows, which never read Memory. */
  memoriesUsed: MemoriesUsed | null;
}

const DEFAULT_MAX_STEPS = 12;

/**
 * The ReAct agent. Ordinary requests (code_explain, general_chat) are admitted to Memory before any main
 * model call, read their bounded history and routing context, and may search and read Memory; only the
 * final text is stored (M-1.3). Repair requests run with a fresh, empty history and no Memory at all
 * (M-1.1, M-4.1).
 */
export class Agent {
  private readonly maxSteps: number;

  constructor(private readonly options: AgentOptions) {
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  }

  /** Routes a non-slash input and serves it. */
  async handle(input: string, run: { signal?: AbortSignal; events?: AgentEvents } = {}): Promise<AgentResult> {
    const onRetry = run.events?.onRetry;
    const route = await classifyIntent(this.options.llm, input, {
      ...(run.signal ? { signal: run.signal } : {}),
      ...(onRetry ? { onRetry } : {}),
    });
    run.events?.onRoute?.(route);
    return this.serve(route, input, run);
  }

  /** Serves an input whose route is already known. */
  async serve(route: RouteDecision, input: string, run: { signal?: AbortSignal; events?: AgentEvents } = {}): Promise<AgentResult> {
    if (isOrdinaryIntent(route.intent)) return this.ordinary(route, route.intent, input, run);
    return this.repair(route, input, run);
  }

  private async ordinary(
    route: RouteDecision,
    intent: OrdinaryIntent,
    input: string,
    run: { signal?: AbortSignal; events?: AgentEvents },
  ): Promise<AgentResult> {
    const { memory } = this.options;
    // M-3.2: the RAW user text is stored before any main model call, bound to the thread of this moment.
    const handle = memory.beginTurn({ intent, userText: input });
    try {
      const profile = ordinaryProfile(intent);
      const routing = memory.routingContext(handle);
      const used: MemoriesUsed = { routing: routing.length > 0 ? memory.routingItems(handle) : [], searched: [], read: [] };
      const messages: ChatMessage[] = [
        { role: 'system', content: joinParts(profile.system, this.instructions(), routing) },
        ...memory.history(handle),
        { role: 'user', content: input },
      ];
      const context: ToolContext = {
        repoRoot: this.options.repoRoot,
        workspace: this.options.workspace,
        memory: { manager: memory, handle, used },
      };
      const loop = await this.loop('react', profile, messages, context, run);
      const turn = memory.completeTurn(handle, loop.text);
      return { intent, route, text: loop.text, turn, steps: loop.steps, toolCalls: loop.toolCalls, memoriesUsed: used };
    } catch (error) {
      try {
        memory.failTurn(handle, error);
      } catch {
        // The turn is already finished or fenced; the original error is what matters.
      }
      throw error;
    }
  }

  private async repair(route: RouteDecision, input: string, run: { signal?: AbortSignal; events?: AgentEvents }): Promise<AgentResult> {
    const intent = route.intent as Exclude<Intent, OrdinaryIntent>;
    const profile = repairProfile(intent);
    const patch = this.options.workspace.pendingPatch;
    // Project instruction files are source, not Memory (M-1.2): repair requests carry them too.
    let system = joinParts(profile.system, this.instructions());
    if (intent !== 'code_audit') system += patch ? `\n\n${describePatch(patch)}` : '\n\nThere is no pending patch right now.';
    // A fresh history for every repair request: nothing from ordinary turns or earlier repairs.
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: input },
    ];
    const context: ToolContext = { repoRoot: this.options.repoRoot, workspace: this.options.workspace };
    const loop = await this.loop('repair', profile, messages, context, run);
    return { intent, route, text: loop.text, turn: null, steps: loop.steps, toolCalls: loop.toolCalls, memoriesUsed: null };
  }

  /** The project's instruction files, read live for each request like any source file. */
  private instructions(): string {
    return loadProjectInstructions(this.options.repoRoot, this.options.instructionsFrom ?? this.options.repoRoot).text;
  }

  /** Model rounds until a final answer; tool results go back to the model, never to Memory. */
  private async loop(
    purpose: LlmPurpose,
    profile: Profile,
    messages: ChatMessage[],
    context: ToolContext,
    run: { signal?: AbortSignal; events?: AgentEvents },
  ): Promise<{ text: string; steps: number; toolCalls: number }> {
    const tools = profile.tools.map(toolSchema);
    const folder = this.options.workingFolder ?? '';
    messages[0] = withWorkingFolder(messages[0]!, folder);
    await attachReferences(messages, context, folder, run.events);
    let toolCalls = 0;
    for (let step = 1; step <= this.maxSteps; step += 1) {
      run.signal?.throwIfAborted();
      const response = await this.options.llm.chat({
        purpose,
        messages,
        tools,
        ...(run.signal ? { signal: run.signal } : {}),
        ...(run.events?.onText ? { onText: run.events.onText } : {}),
      });
      if (!response.toolCalls || response.toolCalls.length === 0) return { text: response.content, steps: step, toolCalls };
      messages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
      for (const asked of response.toolCalls) {
        // A cancel between tools stops the request before the next tool touches anything.
        run.signal?.throwIfAborted();
        const call = inWorkingFolder(asked, context.repoRoot, folder);
        run.events?.onTool?.(call.name, call.arguments);
        toolCalls += 1;
        const output = await runToolCall(profile.tools, call, context);
        run.events?.onToolResult?.(call.name, call.arguments, output);
        messages.push({ role: 'tool', toolCallId: call.id, content: output });
      }
    }
    // Out of tool rounds: one last call without tools forces an answer from what was gathered.
    run.signal?.throwIfAborted();
    messages.push({ role: 'user', content: `(You have used ${this.maxSteps} tool rounds. Answer now with what you have.)` });
    const final = await this.options.llm.chat({
      purpose,
      messages,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.events?.onText ? { onText: run.events.onText } : {}),
    });
    return { text: final.content, steps: this.maxSteps + 1, toolCalls };
  }
}

/** System message parts, blank-line separated; empty parts (no instructions, no routing context) leave no gap. */
function joinParts(...parts: string[]): string {
  return parts.filter((p) => p.length > 0).join('\n\n');
}
