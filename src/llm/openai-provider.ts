import OpenAI from 'openai';
import { type LlmConfig, STREAM_TOTAL_TIMEOUTS, streamDeadlines } from '../config/config.js';
import { type CallPolicy, type CallRecord, LlmCallError, policyFor, rawDiagnostic } from './diagnostics.js';
import { SHORT_CALL_PURPOSES } from './types.js';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient, LlmPurpose, TokenUsage, ToolCall } from './types.js';

/** Calls kept for `AUTOPATCH_DEBUG` output and tests. */
const CALL_HISTORY = 50;

/**
 * Output bounds of the short calls. A Memory answer holds a compaction of up to 4,000 characters and up to
 * 32 candidates or operations; 8,192 tokens is the largest output most chat endpoints allow (DeepSeek's
 * default) and fits a full answer. A longer answer is cut off and reported as truncated, never repaired.
 */
const SHORT_MAX_TOKENS: Partial<Record<LlmPurpose, number>> = { classifier: 256, memory_extraction: 8192, memory_consolidation: 8192 };
const SHORT_TEMPERATURE = 0;
const MEMORY_PURPOSES: readonly LlmPurpose[] = ['memory_extraction', 'memory_consolidation'];
/** Optional request parameters of the short calls that some providers refuse (HTTP 400 naming them). */
const OPTIONAL_PARAMETERS = ['response_format', 'max_tokens', 'temperature'] as const;
/** Asked of streamed calls so the last chunk reports the tokens used; a provider that refuses it is not asked again. */
const STREAM_USAGE = 'stream_options';
type OptionalParameter = (typeof OPTIONAL_PARAMETERS)[number] | typeof STREAM_USAGE;

/**
 * An OpenAI-compatible chat-completions client (DeepSeek, Qwen/DashScope compatible mode, OpenAI, Ollama,
 * vLLM) through the official SDK with `baseURL`. Short calls (classifier, memory extraction and
 * consolidation) never stream and never carry reasoning options or the extra body (M-9.8); main calls
 * (react, repair) stream and carry both. Each call is recorded with its purpose, policy, duration and
 * outcome; a failure carries the bounded RAW provider text, never the request (M-9.5).
 */
export class OpenAiCompatibleProvider implements LlmClient {
  readonly calls: CallRecord[] = [];
  private readonly client: OpenAI;
  /** Parameters this provider refused once: not sent again for the rest of the process. */
  private readonly refused = new Set<OptionalParameter>();
  /** Set when a Qwen3-style endpoint said non-streaming calls need thinking off. */
  private thinkingOff = false;

  constructor(
    private readonly config: LlmConfig,
    private readonly onCall?: (record: CallRecord) => void,
  ) {
    this.client = new OpenAI({
      baseURL: config.baseUrl,
      // The SDK insists on a key; endpoints that need none (Ollama, vLLM) ignore this placeholder.
      apiKey: config.apiKey ?? 'not-needed',
      timeout: config.timeoutMs,
      // Retries are the caller's decision (the Memory jobs have their own backoff).
      maxRetries: 0,
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const policy = policyFor(request.purpose, { reasoningConfigured: this.config.reasoningEffort !== null });
    const started = Date.now();
    try {
      const response = policy.stream ? await this.streamed(request, policy) : await this.single(request, policy);
      this.record({ purpose: request.purpose, policy, durationMs: Date.now() - started, outcome: 'ok' });
      return response;
    } catch (error) {
      const failure = toCallError(error, request, policy, Date.now() - started);
      this.record({
        purpose: request.purpose,
        policy,
        durationMs: failure.details.durationMs,
        outcome: 'error',
        raw: rawDiagnostic(failure),
      });
      throw failure;
    }
  }

  private record(record: CallRecord): void {
    this.calls.push(record);
    if (this.calls.length > CALL_HISTORY) this.calls.shift();
    this.onCall?.(record);
  }

  private body(request: ChatRequest, policy: CallPolicy): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    const short = !policy.stream && !policy.reasoning && SHORT_CALL_PURPOSES.includes(request.purpose);
    if (short) Object.assign(body, this.config.shortExtraBody ?? {});
    else if (policy.stream || policy.reasoning) Object.assign(body, this.config.extraBody);
    const memory = MEMORY_PURPOSES.includes(request.purpose);
    Object.assign(body, {
      model: memory ? (this.config.memoryModel ?? this.config.model) : this.config.model,
      messages: request.messages.map(toWireMessage),
    });
    if (short) {
      const optional: Record<(typeof OPTIONAL_PARAMETERS)[number], unknown> = {
        response_format: memory ? { type: 'json_object' } : undefined,
        max_tokens: SHORT_MAX_TOKENS[request.purpose],
        temperature: SHORT_TEMPERATURE,
      };
      for (const name of OPTIONAL_PARAMETERS) {
        if (optional[name] !== undefined && !this.refused.has(name) && !(name in body)) body[name] = optional[name];
      }
      if (this.thinkingOff && !('enable_thinking' in body)) body['enable_thinking'] = false;
    }
    if (request.tools && request.tools.length > 0) {
      body['tools'] = request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    }
    if (policy.reasoning && this.config.reasoningEffort !== null) body['reasoning_effort'] = this.config.reasoningEffort;
    return body;
  }

  /**
   * A short call. When the provider refuses an optional parameter (HTTP 400 naming `response_format`,
   * `max_tokens` or `temperature`), or says a non-streaming call needs thinking off (Qwen3), the call is
   * made again at once without it (or with `enable_thinking: false`), and that is remembered for the process.
   */
  private async single(request: ChatRequest, policy: CallPolicy): Promise<ChatResponse> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.singleOnce(request, policy);
      } catch (error) {
        if (attempt >= OPTIONAL_PARAMETERS.length + 1 || !this.adaptTo(error, this.body(request, policy))) throw error;
      }
    }
  }

  /** Learns from a 400 that names a parameter we sent; true when the request should be made again. */
  private adaptTo(error: unknown, sent: Record<string, unknown>, optional: readonly OptionalParameter[] = OPTIONAL_PARAMETERS): boolean {
    if (!(error instanceof OpenAI.APIError) || error.status !== 400) return false;
    const said = `${error.message} ${JSON.stringify(error.error ?? '')}`.toLowerCase();
    for (const name of optional) {
      if (name in sent && !this.refused.has(name) && said.includes(name)) {
        this.refused.add(name);
        return true;
      }
    }
    if (!this.thinkingOff && !('enable_thinking' in sent) && said.includes('enable_thinking')) {
      this.thinkingOff = true;
      return true;
    }
    return false;
  }

  private async singleOnce(request: ChatRequest, policy: CallPolicy): Promise<ChatResponse> {
    const body = this.body(request, policy);
    const completion = (await this.client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, {
      signal: request.signal,
    })) as OpenAI.Chat.ChatCompletion;
    const choice = completion?.choices?.[0];
    if (!choice || !choice.message) throw new MalformedResponse('the response has no choices[0].message');
    const toolCalls = (choice.message.tool_calls ?? [])
      .filter((c): c is OpenAI.Chat.ChatCompletionMessageFunctionToolCall => c.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '' }));
    const usage = tokenUsage(completion.usage);
    return {
      content: choice.message.content ?? '',
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      finishReason: choice.finish_reason ?? null,
      ...(usage ? { usage } : {}),
    };
  }

  /**
   * A main call, streamed. Two deadlines bound it (issue "Safe hands", item 3), both derived from
   * AUTOPATCH_LLM_TIMEOUT_MS: no chunk for the idle time (a stalled stream; keep-alive comments are no chunks),
   * or not finished within the total time (a trickle that never ends). Either ends the call with a timeout.
   */
  private async streamed(request: ChatRequest, policy: CallPolicy): Promise<ChatResponse> {
    const body: Record<string, unknown> = { ...this.body(request, policy), stream: true };
    const usage = !this.refused.has(STREAM_USAGE) && !(STREAM_USAGE in body);
    if (usage) body[STREAM_USAGE] = { include_usage: true };
    const { idleMs, totalMs } = streamDeadlines(this.config);
    const started = Date.now();
    const deadline = new AbortController();
    let missed: 'idle' | 'total' | null = null;
    const expire = (which: 'idle' | 'total'): void => {
      missed ??= which;
      deadline.abort();
    };
    const total = setTimeout(() => expire('total'), totalMs);
    // Until the response starts, the SDK's own request timeout applies ("did not answer in time").
    let idle: NodeJS.Timeout | undefined;
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    const timedOut = (): LlmCallError =>
      new LlmCallError(
        missed === 'idle'
          ? `the answer stopped: nothing arrived for ${seconds(idleMs)} (AUTOPATCH_LLM_TIMEOUT_MS=${this.config.timeoutMs})`
          : `the answer did not finish within ${seconds(totalMs)} ` +
              `(${STREAM_TOTAL_TIMEOUTS} × AUTOPATCH_LLM_TIMEOUT_MS=${this.config.timeoutMs})`,
        { purpose: request.purpose, policy, durationMs: Date.now() - started, kind: 'timeout', deadline: missed ?? 'total' },
      );
    let reported: TokenUsage | undefined;
    let content = '';
    let finishReason: string | null = null;
    const calls = new Map<number, ToolCall>();
    try {
      let stream;
      try {
        stream = await this.client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, {
          signal,
        });
      } catch (error) {
        // Nothing has streamed yet: a provider that refuses the usage report is asked again at once without it.
        if (missed !== null || !usage || !this.adaptTo(error, body, [STREAM_USAGE]) || !this.refused.has(STREAM_USAGE)) throw error;
        clearTimeout(total);
        return await this.streamed(request, policy);
      }
      idle = setTimeout(() => expire('idle'), idleMs);
      for await (const chunk of stream) {
        clearTimeout(idle);
        idle = setTimeout(() => expire('idle'), idleMs);
        reported = tokenUsage(chunk?.usage) ?? reported;
        finishReason = chunk?.choices?.[0]?.finish_reason ?? finishReason;
        const delta = chunk?.choices?.[0]?.delta;
        if (!delta) continue;
        if (typeof delta.content === 'string' && delta.content.length > 0) {
          content += delta.content;
          request.onText?.(delta.content);
        }
        for (const part of delta.tool_calls ?? []) {
          const existing = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
          if (part.id) existing.id = part.id;
          if (part.function?.name) existing.name += part.function.name;
          if (part.function?.arguments) existing.arguments += part.function.arguments;
          calls.set(part.index, existing);
        }
      }
    } catch (error) {
      if (missed !== null && !request.signal?.aborted) throw timedOut();
      throw error;
    } finally {
      clearTimeout(total);
      clearTimeout(idle);
    }
    // The SDK may end an aborted stream quietly: a cut-off answer must not pass for a complete one.
    if (missed !== null && !request.signal?.aborted) throw timedOut();
    const toolCalls = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    return { content, ...(toolCalls.length > 0 ? { toolCalls } : {}), finishReason, ...(reported ? { usage: reported } : {}) };
  }
}

/** The provider's usage report, when it gave one with numbers. */
function tokenUsage(usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return undefined;
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

class MalformedResponse extends Error {
  override readonly name = 'MalformedResponse';
}

function toWireMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
  if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: message.content.length > 0 ? message.content : null,
      tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: message.role, content: message.content };
}

/** Maps an SDK or network failure to an LlmCallError holding only what the provider said. */
function toCallError(error: unknown, request: ChatRequest, policy: CallPolicy, durationMs: number): LlmCallError {
  if (error instanceof LlmCallError) return error;
  const base = { purpose: request.purpose, policy, durationMs };
  if (error instanceof OpenAI.APIUserAbortError || request.signal?.aborted) {
    return new LlmCallError('the request was cancelled', { ...base, kind: 'aborted' }, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmCallError('the request timed out', { ...base, kind: 'timeout' }, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : error.message;
    return new LlmCallError(`connection failed: ${detail}`, { ...base, kind: 'network' }, { cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    const body = error.error === undefined ? null : typeof error.error === 'string' ? error.error : JSON.stringify(error.error);
    return new LlmCallError(
      error.message,
      {
        ...base,
        kind: 'http',
        ...(error.status !== undefined ? { status: error.status } : {}),
        code: error.code ?? null,
        errorType: error.type ?? null,
        body,
      },
      { cause: error },
    );
  }
  if (error instanceof MalformedResponse || error instanceof SyntaxError) {
    return new LlmCallError(`malformed response: ${(error as Error).message}`, { ...base, kind: 'malformed_response' }, { cause: error });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new LlmCallError(message, { ...base, kind: 'network' }, { cause: error });
}
