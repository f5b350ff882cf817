import OpenAI from 'openai';
import type { LlmConfig } from '../config/config.js';
import { type CallPolicy, type CallRecord, LlmCallError, policyFor, rawDiagnostic } from './diagnostics.js';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient, ToolCall } from './types.js';

/** Calls kept for `AUTOPATCH_DEBUG` output and tests. */
const CALL_HISTORY = 50;

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
      this.record({ purpose: request.purpose, policy, durationMs: failure.details.durationMs, outcome: 'error', raw: rawDiagnostic(failure) });
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
    if (policy.stream || policy.reasoning) Object.assign(body, this.config.extraBody);
    Object.assign(body, {
      model: this.config.model,
      messages: request.messages.map(toWireMessage),
    });
    if (request.tools && request.tools.length > 0) {
      body['tools'] = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    }
    if (policy.reasoning && this.config.reasoningEffort !== null) body['reasoning_effort'] = this.config.reasoningEffort;
    return body;
  }

  private async single(request: ChatRequest, policy: CallPolicy): Promise<ChatResponse> {
    const body = this.body(request, policy);
    const completion = (await this.client.chat.completions.create(
      body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
      { signal: request.signal },
    )) as OpenAI.Chat.ChatCompletion;
    const choice = completion?.choices?.[0];
    if (!choice || !choice.message) throw new MalformedResponse('the response has no choices[0].message');
    const toolCalls = (choice.message.tool_calls ?? [])
      .filter((c): c is OpenAI.Chat.ChatCompletionMessageFunctionToolCall => c.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '' }));
    return { content: choice.message.content ?? '', ...(toolCalls.length > 0 ? { toolCalls } : {}) };
  }

  private async streamed(request: ChatRequest, policy: CallPolicy): Promise<ChatResponse> {
    const body = { ...this.body(request, policy), stream: true };
    const stream = await this.client.chat.completions.create(
      body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming,
      { signal: request.signal },
    );
    let content = '';
    const calls = new Map<number, ToolCall>();
    for await (const chunk of stream) {
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
    const toolCalls = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    return { content, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
  }
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
    return new LlmCallError(error.message, {
      ...base,
      kind: 'http',
      ...(error.status !== undefined ? { status: error.status } : {}),
      code: error.code ?? null,
      errorType: error.type ?? null,
      body,
    }, { cause: error });
  }
  if (error instanceof MalformedResponse || error instanceof SyntaxError) {
    return new LlmCallError(`malformed response: ${(error as Error).message}`, { ...base, kind: 'malformed_response' }, { cause: error });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new LlmCallError(message, { ...base, kind: 'network' }, { cause: error });
}
