import { LlmCallError, policyFor } from './diagnostics.js';
import type { ChatRequest, ChatResponse, LlmClient, LlmPurpose } from './types.js';

/** Why the provider should not be waited on again in this process. */
export interface ProviderTrouble {
  kind: 'timeout' | 'unreachable' | 'auth' | 'model_not_found';
  error: LlmCallError;
}

/** A retry of a main call that the user should hear about ("rate limited, retrying in 4 s"). */
export interface RetryNotice {
  attempt: number;
  of: number;
  delayMs: number;
  status: number;
}

export interface GuardedLlmOptions {
  /** The classifier's own timeout; never more than the configured request timeout. */
  classifierTimeoutMs: number;
  /** Retries of a main call on HTTP 429 or 5xx (default 3). */
  maxRetries?: number;
  /** First backoff when the provider sends no `retry-after` (doubles each time; default 1 s). */
  baseDelayMs?: number;
  /** Upper bound of one wait, `retry-after` included (default 30 s). */
  maxDelayMs?: number;
}

export const CLASSIFIER_TIMEOUT_MS = 10_000;

const MAIN_PURPOSES: readonly LlmPurpose[] = ['react', 'repair'];

/**
 * Wraps a model client with what a person at a terminal needs from it: the classifier gets a short timeout
 * of its own; a main call cut off by the user is an error, never a short answer; 429/5xx on main calls are
 * retried with backoff honouring `retry-after`; the first timeout, unreachable host, refused key or unknown
 * model of the process is remembered so nothing waits on that provider again without need, and a refused
 * key or unknown model fails later calls at once instead of costing one request each.
 */
export class GuardedLlm implements LlmClient {
  /** The first lasting problem seen in this process, or null. */
  trouble: ProviderTrouble | null = null;
  /** Called before each retry wait of a main call. */
  onRetry: ((notice: RetryNotice) => void) | null = null;
  /** While true and the provider has shown trouble, Memory calls fail at once instead of waiting on it again. */
  holdMemoryCalls = false;
  private readonly everything = new AbortController();

  constructor(
    private readonly inner: LlmClient,
    private readonly options: GuardedLlmOptions,
  ) {}

  /** Aborts every call in flight and every later one (Ctrl-C during the exit pass). */
  cancelAll(): void {
    this.everything.abort();
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    if (this.trouble && (this.trouble.kind === 'auth' || this.trouble.kind === 'model_not_found')) throw this.trouble.error;
    if (this.trouble && this.holdMemoryCalls && request.purpose.startsWith('memory_')) throw this.trouble.error;
    const maxRetries = MAIN_PURPOSES.includes(request.purpose) ? (this.options.maxRetries ?? 3) : 0;
    for (let attempt = 0; ; attempt += 1) {
      let streamed = false;
      try {
        return await this.once(request, () => (streamed = true));
      } catch (error) {
        if (!(error instanceof LlmCallError)) throw error;
        this.remember(error);
        const status = error.details.status;
        const retryable = error.details.kind === 'http' && status !== undefined && (status === 429 || status >= 500);
        if (!retryable || streamed || attempt >= maxRetries) throw error;
        const delayMs = this.delayFor(error, attempt);
        this.onRetry?.({ attempt: attempt + 1, of: maxRetries, delayMs, status: status! });
        await sleep(delayMs, request.signal);
      }
    }
  }

  private async once(request: ChatRequest, onStreamed: () => void): Promise<ChatResponse> {
    const signals: AbortSignal[] = [this.everything.signal];
    if (request.signal) signals.push(request.signal);
    const classifier = request.purpose === 'classifier';
    const timer = classifier ? AbortSignal.timeout(this.options.classifierTimeoutMs) : null;
    if (timer) signals.push(timer);
    const signal = AbortSignal.any(signals);
    const started = Date.now();
    const policy = policyFor(request.purpose, { reasoningConfigured: false });
    const timedOut = (): LlmCallError =>
      new LlmCallError(`the classifier did not answer within ${Math.round(this.options.classifierTimeoutMs / 1000)} s`, {
        purpose: request.purpose,
        policy,
        durationMs: Date.now() - started,
        kind: 'timeout',
      });
    const userStopped = (): boolean => request.signal?.aborted === true || this.everything.signal.aborted;
    let response: ChatResponse;
    try {
      response = await this.inner.chat({
        ...request,
        signal,
        ...(request.onText
          ? {
              onText: (delta: string) => {
                onStreamed();
                request.onText!(delta);
              },
            }
          : {}),
      });
    } catch (error) {
      if (timer?.aborted && !userStopped()) throw timedOut();
      throw error;
    }
    // The SDK ends an aborted stream quietly; a cut-off answer must not pass for a complete one.
    if (signal.aborted) {
      if (timer?.aborted && !userStopped()) throw timedOut();
      throw new LlmCallError('the request was cancelled', {
        purpose: request.purpose,
        policy,
        durationMs: Date.now() - started,
        kind: 'aborted',
      });
    }
    return response;
  }

  private remember(error: LlmCallError): void {
    if (this.trouble) return;
    const kind = troubleKind(error);
    if (kind) this.trouble = { kind, error };
  }

  private delayFor(error: LlmCallError, attempt: number): number {
    const max = this.options.maxDelayMs ?? 30_000;
    const header = retryAfterMs(error);
    if (header !== null) return Math.min(max, header);
    return Math.min(max, (this.options.baseDelayMs ?? 1000) * 2 ** attempt);
  }
}

/** Which lasting problem an error shows, if any. */
export function troubleKind(error: LlmCallError): ProviderTrouble['kind'] | null {
  const d = error.details;
  if (d.kind === 'timeout') return 'timeout';
  if (d.kind === 'network') return 'unreachable';
  if (d.kind === 'http' && (d.status === 401 || d.status === 403)) return 'auth';
  if (d.kind === 'http' && isModelNotFound(error)) return 'model_not_found';
  return null;
}

/** A 404 (or a 400 naming the model) that says the model does not exist. */
export function isModelNotFound(error: LlmCallError): boolean {
  const d = error.details;
  if (d.kind !== 'http') return false;
  const text = `${d.code ?? ''} ${d.errorType ?? ''} ${d.body ?? ''} ${error.message}`.toLowerCase();
  if (!text.includes('model')) return false;
  if (d.status === 404) return true;
  return (d.status === 400 || d.status === 422) && /(not.?found|not exist|unknown|invalid|unsupported)/.test(text);
}

/** The provider's `retry-after` (seconds or an HTTP date), in milliseconds, from the SDK error's headers. */
export function retryAfterMs(error: LlmCallError, now: number = Date.now()): number | null {
  const headers = (error.cause as { headers?: { get?: (name: string) => string | null } } | undefined)?.headers;
  const value = typeof headers?.get === 'function' ? headers.get('retry-after') : null;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
