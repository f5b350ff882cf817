import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { LlmCallError, rawDiagnostic } from '../../src/llm/diagnostics.js';
import { OpenAiCompatibleProvider } from '../../src/llm/openai-provider.js';
import type { LlmPurpose } from '../../src/llm/types.js';
import { FakeOpenAi } from '../helpers/fake-openai.js';

let server: FakeOpenAi;
beforeEach(async () => {
  server = await new FakeOpenAi().start();
});
afterEach(async () => {
  await server.stop();
});

const SECRET = 'sk-test-SECRET-KEY-123';

function provider(overrides: Partial<ReturnType<typeof baseConfig>> = {}): OpenAiCompatibleProvider {
  return new OpenAiCompatibleProvider({ ...baseConfig(), ...overrides });
}

function baseConfig() {
  return {
    baseUrl: server.url,
    apiKey: SECRET,
    model: 'test-model',
    reasoningEffort: 'high',
    extraBody: { temperature: 0.1, enable_thinking: true },
    timeoutMs: 2_000,
  };
}

const ask = (purpose: LlmPurpose, text = 'hello 你好') => ({
  purpose,
  messages: [
    { role: 'system' as const, content: 'SYSTEM PROMPT TEXT' },
    { role: 'user' as const, content: text },
  ],
});

describe('OpenAI-compatible provider (INTERFACES.md §3)', () => {
  it('plain answers for short calls: no stream, no reasoning options, no extra body (M-9.8)', async () => {
    server.reply({ text: '{"intent":"general_chat"}' });
    const p = provider();
    for (const purpose of ['classifier', 'memory_extraction', 'memory_consolidation'] as const) {
      server.reply({ text: 'x' });
      await p.chat(ask(purpose));
    }
    for (const r of server.requests) {
      expect(r.path).toBe('/v1/chat/completions');
      expect(r.body).not.toHaveProperty('stream');
      expect(r.body).not.toHaveProperty('reasoning_effort');
      expect(r.body).not.toHaveProperty('enable_thinking');
      expect(r.body.model).toBe('test-model');
      expect(r.headers.authorization).toBe(`Bearer ${SECRET}`);
    }
    expect(p.calls.map((c) => [c.purpose, c.policy, c.outcome])).toEqual([
      ['classifier', { stream: false, reasoning: false }, 'ok'],
      ['memory_extraction', { stream: false, reasoning: false }, 'ok'],
      ['memory_consolidation', { stream: false, reasoning: false }, 'ok'],
    ]);
  });

  it('main calls stream and carry the reasoning effort and extra body', async () => {
    server.reply({ text: '流式回答 streamed answer' });
    const deltas: string[] = [];
    const answer = await provider().chat({ ...ask('react'), onText: (d) => deltas.push(d) });
    expect(answer.content).toBe('流式回答 streamed answer');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe(answer.content);
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({ stream: true, reasoning_effort: 'high', temperature: 0.1, enable_thinking: true });
  });

  it('tool-call rounds, streamed and not', async () => {
    server.reply({ text: '', toolCalls: [{ name: 'read_file', arguments: '{"path":"src/a.ts"}' }] });
    const streamed = await provider().chat({
      ...ask('react'),
      tools: [{ name: 'read_file', description: 'read', parameters: { type: 'object' } }],
    });
    expect(streamed.toolCalls).toEqual([{ id: expect.any(String), name: 'read_file', arguments: '{"path":"src/a.ts"}' }]);
    expect(server.requests[0]!.body.tools?.[0]?.function.name).toBe('read_file');
    server.reply({ text: 'after tool' });
    const next = await provider().chat({
      purpose: 'react',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '', toolCalls: streamed.toolCalls },
        { role: 'tool', content: 'file text', toolCallId: streamed.toolCalls![0]!.id },
      ],
    });
    expect(next.content).toBe('after tool');
    expect(server.requests[1]!.body.messages![1]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'read_file' } }] });
    expect(server.requests[1]!.body.messages![2]).toMatchObject({ role: 'tool', content: 'file text' });
  });

  it('HTTP 4xx/5xx keep status and the provider body; the request and key never appear (M-9.5)', async () => {
    for (const status of [400, 429, 500, 503]) {
      server.reply({ status, body: JSON.stringify({ error: { message: `<b>boom ${status}</b>`, type: 'server_error', code: 'E42' } }) });
      const error = await provider()
        .chat(ask('memory_extraction', 'PRIVATE USER TEXT'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      const raw = rawDiagnostic(error);
      expect(raw).toContain(`status: ${status}`);
      expect(raw).toContain(`<b>boom ${status}</b>`);
      expect(raw).toContain('code: E42');
      expect(raw).toContain('purpose: memory_extraction (stream off, reasoning off)');
      expect(raw).not.toContain('PRIVATE USER TEXT');
      expect(raw).not.toContain('SYSTEM PROMPT TEXT');
      expect(raw).not.toContain(SECRET);
      expect(raw.toLowerCase()).not.toContain('authorization');
    }
  });

  it('a non-JSON error page and a malformed success body are reported, not thrown raw', async () => {
    server.reply({ status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' });
    const gateway = await provider()
      .chat(ask('classifier'))
      .catch((e: unknown) => e);
    expect(rawDiagnostic(gateway)).toContain('status: 502');
    server.reply({ raw: '{"choices": [ not json' });
    const malformed = await provider()
      .chat(ask('classifier'))
      .catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(LlmCallError);
    expect((malformed as LlmCallError).details.kind).toMatch(/malformed_response|network/);
    server.reply({ raw: '{"id":"x","choices":[]}' });
    const empty = await provider()
      .chat(ask('classifier'))
      .catch((e: unknown) => e);
    expect((empty as LlmCallError).details.kind).toBe('malformed_response');
  });

  it('a hanging server times out within the configured timeout', async () => {
    server.reply({ hang: true });
    const started = Date.now();
    const error = await provider({ timeoutMs: 300 })
      .chat(ask('classifier'))
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((error as LlmCallError).details.kind).toBe('timeout');
  });

  it('an abort signal cancels the request', async () => {
    server.reply({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await provider()
      .chat({ ...ask('react'), signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as LlmCallError).details.kind).toBe('aborted');
  });
});

describe('config (INTERFACES.md §3)', () => {
  it('defaults, and no provider without a key or base URL', () => {
    expect(loadConfig({}).llm).toBeNull();
    expect(loadConfig({ AUTOPATCH_LLM_API_KEY: 'k' }).llm).toMatchObject({
      baseUrl: 'https://api.deepseek.com',
      model: 'deepseek-chat',
      timeoutMs: 60_000,
      extraBody: {},
    });
    expect(loadConfig({ AUTOPATCH_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).llm).toMatchObject({ apiKey: null });
    expect(loadConfig({ AUTOPATCH_DEBUG: 'true' }).debug).toBe(true);
  });

  it('an invalid extra body or timeout is a clear message naming the variable', () => {
    expect(() => loadConfig({ AUTOPATCH_LLM_EXTRA_BODY: '{oops' })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTOPATCH_LLM_EXTRA_BODY: '[1]' })).toThrow(/AUTOPATCH_LLM_EXTRA_BODY: must be a JSON object/);
    expect(() => loadConfig({ AUTOPATCH_LLM_TIMEOUT_MS: 'soon' })).toThrow(/AUTOPATCH_LLM_TIMEOUT_MS/);
    expect(() => loadConfig({ AUTOPATCH_LLM_BASE_URL: 'ftp://x' })).toThrow(/AUTOPATCH_LLM_BASE_URL/);
  });
});
