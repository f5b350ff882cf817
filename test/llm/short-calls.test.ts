import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { OpenAiCompatibleProvider } from '../../src/llm/openai-provider.js';
import type { LlmPurpose } from '../../src/llm/types.js';
import { FakeOpenAi } from '../helpers/fake-openai.js';

/** INTERFACES.md §2–3 (2026-11-30): what the short calls send, and how they adapt to what a provider refuses. */

let server: FakeOpenAi;
beforeEach(async () => {
  server = await new FakeOpenAi().start();
});
afterEach(async () => {
  await server.stop();
});

const ask = (purpose: LlmPurpose) => ({
  purpose,
  messages: [
    { role: 'system' as const, content: 'S' },
    { role: 'user' as const, content: '{}' },
  ],
});

function provider(overrides: Record<string, unknown> = {}): OpenAiCompatibleProvider {
  return new OpenAiCompatibleProvider({
    baseUrl: server.url,
    apiKey: 'k',
    model: 'main-model',
    reasoningEffort: 'high',
    extraBody: { temperature: 0.7, top_p: 0.9 },
    shortExtraBody: { enable_thinking: false },
    memoryModel: 'cheap-model',
    timeoutMs: 2_000,
    ...overrides,
  });
}

const status400 = (message: string) => ({ status: 400, body: JSON.stringify({ error: { message, type: 'invalid_request_error' } }) });

describe('short calls (M-9.8, INTERFACES.md §2)', () => {
  it('Memory stages ask for a JSON object with bounded max_tokens and temperature 0, on the memory model, with the short extra body only', async () => {
    const p = provider();
    for (const purpose of ['memory_extraction', 'memory_consolidation', 'classifier', 'react'] as const) {
      server.reply({ text: '{}' });
      await p.chat(ask(purpose));
    }
    const [extraction, consolidation, classifier, react] = server.requests.map((r) => r.body);
    for (const body of [extraction, consolidation]) {
      expect(body).toMatchObject({
        model: 'cheap-model',
        response_format: { type: 'json_object' },
        temperature: 0,
        enable_thinking: false,
      });
      expect(body!.max_tokens).toBe(8192);
      expect(body).not.toHaveProperty('stream');
      expect(body).not.toHaveProperty('top_p');
      expect(body).not.toHaveProperty('reasoning_effort');
    }
    expect(classifier).toMatchObject({ model: 'main-model', temperature: 0, enable_thinking: false });
    expect(classifier).not.toHaveProperty('response_format');
    expect(classifier!.max_tokens).toBeLessThanOrEqual(256);
    // Main calls keep their own settings and never get the short ones.
    expect(react).toMatchObject({ model: 'main-model', stream: true, temperature: 0.7, top_p: 0.9, reasoning_effort: 'high' });
    expect(react).not.toHaveProperty('enable_thinking');
    expect(react).not.toHaveProperty('response_format');
  });

  it('the short extra body wins over the defaults it names (e.g. a temperature the user chose)', async () => {
    server.reply({ text: '{}' });
    await provider({ shortExtraBody: { temperature: 0.3, max_tokens: 4000 } }).chat(ask('memory_extraction'));
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0.3, max_tokens: 4000 });
  });

  it('a provider that refuses response_format gets the call again at once without it, and never again in this process', async () => {
    const p = provider();
    server.reply(
      status400("Invalid parameter: 'response_format' of type 'json_object' is not supported with this model."),
      { text: '{"a":1}' },
      { text: '{}' },
    );
    const answer = await p.chat(ask('memory_extraction'));
    expect(answer.content).toBe('{"a":1}');
    await p.chat(ask('memory_consolidation'));
    expect(server.requests.map((r) => 'response_format' in r.body)).toEqual([true, false, false]);
    expect(p.calls.map((c) => c.outcome)).toEqual(['ok', 'ok']);
  });

  it('a provider that refuses max_tokens or temperature (reasoning models) gets the call again without it', async () => {
    const p = provider();
    server.reply(
      status400("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."),
      status400("Unsupported value: 'temperature' does not support 0 with this model."),
      { text: '{}' },
    );
    await p.chat(ask('memory_extraction'));
    expect(server.requests.map((r) => ['max_tokens' in r.body, 'temperature' in r.body])).toEqual([
      [true, true],
      [false, true],
      [false, false],
    ]);
  });

  it('Qwen3: a non-streaming call refused for thinking is made again with enable_thinking false, remembered', async () => {
    const p = provider({ shortExtraBody: {} });
    server.reply(status400('parameter.enable_thinking must be set to false for non-streaming calls'), { text: '{}' }, { text: '{}' });
    await p.chat(ask('memory_extraction'));
    await p.chat(ask('classifier'));
    expect(server.requests.map((r) => r.body.enable_thinking)).toEqual([undefined, false, false]);
  });

  it('a 400 that names nothing we sent is not retried', async () => {
    const p = provider();
    server.reply(status400('The model `cheap-model` does not exist'), { text: '{}' });
    await expect(p.chat(ask('memory_extraction'))).rejects.toThrow(/does not exist/);
    expect(server.requests).toHaveLength(1);
  });

  it('finish_reason reaches the caller ("length" marks a cut-off answer)', async () => {
    server.reply({
      raw: JSON.stringify({
        choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: '{"thread_compaction": "cut' } }],
      }),
    });
    const answer = await provider().chat(ask('memory_extraction'));
    expect(answer.finishReason).toBe('length');
  });
});

describe('short-call settings (INTERFACES.md §3)', () => {
  it('AUTOPATCH_LLM_SHORT_EXTRA_BODY and AUTOPATCH_LLM_MEMORY_MODEL are read and validated', () => {
    const config = loadConfig({
      AUTOPATCH_LLM_API_KEY: 'k',
      AUTOPATCH_LLM_SHORT_EXTRA_BODY: '{"enable_thinking": false}',
      AUTOPATCH_LLM_MEMORY_MODEL: 'qwen-turbo',
    });
    expect(config.llm).toMatchObject({ shortExtraBody: { enable_thinking: false }, memoryModel: 'qwen-turbo' });
    expect(loadConfig({ AUTOPATCH_LLM_API_KEY: 'k' }).llm).toMatchObject({ shortExtraBody: {}, memoryModel: null });
    expect(() => loadConfig({ AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_LLM_SHORT_EXTRA_BODY: '[1]' })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_LLM_SHORT_EXTRA_BODY: '{bad' })).toThrow(
      /AUTOPATCH_LLM_SHORT_EXTRA_BODY: is not valid JSON/,
    );
  });
});
