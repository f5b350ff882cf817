import type { ChatRequest, ChatResponse, LlmClient, LlmPurpose } from './types.js';

/** One scripted reply: a response, a thrown error, a hang until aborted, or a function of the request. */
export type ScriptStep =
  ChatResponse | { error: unknown } | { hang: true } | ((request: ChatRequest) => ChatResponse | Promise<ChatResponse>);

/**
 * A canned model for tests, benchmarks and the quality corpus: replies are scripted per purpose and
 * consumed in order; every request is recorded so tests can assert what was sent. Only the model is
 * fake; everything else runs for real.
 */
export class ScriptedLlm implements LlmClient {
  readonly requests: ChatRequest[] = [];
  private readonly queues = new Map<LlmPurpose, ScriptStep[]>();
  private readonly fallbacks = new Map<LlmPurpose, ScriptStep>();

  /** Queue replies for a purpose, used once each, in order. */
  enqueue(purpose: LlmPurpose, ...steps: ScriptStep[]): this {
    const queue = this.queues.get(purpose) ?? [];
    queue.push(...steps);
    this.queues.set(purpose, queue);
    return this;
  }

  /** The reply for a purpose once its queue is empty. */
  always(purpose: LlmPurpose, step: ScriptStep): this {
    this.fallbacks.set(purpose, step);
    return this;
  }

  /** Requests made for one purpose. */
  requestsFor(purpose: LlmPurpose): ChatRequest[] {
    return this.requests.filter((r) => r.purpose === purpose);
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    const step = this.queues.get(request.purpose)?.shift() ?? this.fallbacks.get(request.purpose);
    if (step === undefined) throw new Error(`ScriptedLlm: no scripted reply for ${request.purpose}`);
    if (typeof step === 'function') return step(request);
    if ('error' in step) throw step.error;
    if ('hang' in step) {
      return new Promise<ChatResponse>((_, reject) => {
        const abort = (): void => reject(request.signal?.reason ?? new Error('aborted'));
        if (request.signal?.aborted) abort();
        else request.signal?.addEventListener('abort', abort, { once: true });
      });
    }
    if (request.onText && step.content) request.onText(step.content);
    return step;
  }
}
