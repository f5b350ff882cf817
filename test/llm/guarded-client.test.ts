import { describe, expect, it } from 'vitest';
import { LlmCallError } from '../../src/llm/diagnostics.js';
import { GuardedLlm, retryAfterMs } from '../../src/llm/guarded-client.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../../src/llm/types.js';

/** A model that never answers until its signal aborts, like a hanging server. */
class Hanging implements LlmClient {
  chat(request: ChatRequest): Promise<ChatResponse> {
    return new Promise((_resolve, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('aborted by signal')));
    });
  }
}

/** A streaming model whose stream ends quietly when aborted, as the OpenAI SDK's does. */
class QuietStream implements LlmClient {
  chat(request: ChatRequest): Promise<ChatResponse> {
    return new Promise((resolve) => {
      request.signal?.addEventListener('abort', () => resolve({ content: 'half an ' }));
      request.onText?.('half an ');
    });
  }
}

describe('guarded model calls', () => {
  it('the classifier has its own short timeout, reported as a timeout and remembered as provider trouble', async () => {
    const llm = new GuardedLlm(new Hanging(), { classifierTimeoutMs: 30 });
    const error = await llm.chat({ purpose: 'classifier', messages: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).details.kind).toBe('timeout');
    expect(llm.trouble?.kind).toBe('timeout');
  });

  it('a main call cut off by the user is an aborted error, never a short answer', async () => {
    const llm = new GuardedLlm(new QuietStream(), { classifierTimeoutMs: 1000 });
    const controller = new AbortController();
    const pending = llm.chat({ purpose: 'react', messages: [], signal: controller.signal, onText: () => controller.abort() });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).details.kind).toBe('aborted');
  });

  it('cancelAll stops every call in flight (Ctrl-C during the exit pass)', async () => {
    const llm = new GuardedLlm(new Hanging(), { classifierTimeoutMs: 60_000 });
    const call = llm.chat({ purpose: 'memory_extraction', messages: [] }).catch((e: unknown) => e);
    llm.cancelAll();
    expect(await call).toBeInstanceOf(Error);
  });

  it('reads retry-after as seconds or as an HTTP date', () => {
    const withHeader = (value: string): LlmCallError =>
      new LlmCallError(
        'x',
        { purpose: 'react', policy: { stream: true, reasoning: false }, durationMs: 1, kind: 'http', status: 429 },
        { cause: { headers: new Headers({ 'retry-after': value }) } },
      );
    expect(retryAfterMs(withHeader('2'))).toBe(2000);
    expect(retryAfterMs(withHeader(new Date(10_000).toUTCString()), 4000)).toBe(6000);
    expect(retryAfterMs(withHeader('soon'))).toBeNull();
  });
});
