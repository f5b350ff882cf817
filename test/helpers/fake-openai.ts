import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { OpenAiCompatibleProvider } from '../../src/llm/openai-provider.js';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> & {
    messages?: { role: string; content: string | null; tool_calls?: unknown[] }[];
    tools?: { function: { name: string } }[];
  };
  raw: string;
}

export type Reply =
  | {
      text: string;
      toolCalls?: { name: string; arguments: string }[];
      delayMs?: number;
      /** stream the text, then never finish */ hangAfter?: boolean;
      /** tokens to report: in the response, or in a last chunk when a stream asks for `stream_options.include_usage` */
      usage?: { prompt: number; completion: number };
      /** characters per streamed content chunk (5 unless given) */
      chunkSize?: number;
    }
  | { status: number; body: string; contentType?: string; headers?: Record<string, string> }
  | { raw: string; contentType?: string }
  | { hang: true }
  /** A stream that never ends: one content chunk every `everyMs` (a trickle), or only SSE keep-alive comments. */
  | { endless: 'trickle' | 'keep-alive'; everyMs: number }
  | ((request: RecordedRequest) => Reply);

/**
 * A small OpenAI-compatible chat-completions server on 127.0.0.1 for tests: replies are queued (or chosen
 * by a router function), every request is recorded. Streams with server-sent events when asked to.
 */
export class FakeOpenAi {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Reply[] = [];
  private fallback: Reply = { text: 'ok' };
  private server: Server | undefined;
  private readonly hanging = new Set<ServerResponse>();
  url = '';

  /** The real provider, pointed at this server (model "m", key "k", 5 s timeout). */
  provider(): OpenAiCompatibleProvider {
    return new OpenAiCompatibleProvider({
      baseUrl: this.url,
      apiKey: 'k',
      model: 'm',
      reasoningEffort: null,
      extraBody: {},
      timeoutMs: 5_000,
    });
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/v1`;
    return this;
  }

  reply(...replies: Reply[]): this {
    this.queue.push(...replies);
    return this;
  }

  always(reply: Reply): this {
    this.fallback = reply;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests whose first system message mentions the given text (e.g. the classifier prompt). */
  requestsWhere(predicate: (r: RecordedRequest) => boolean): RecordedRequest[] {
    return this.requests.filter(predicate);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    let body: RecordedRequest['body'] = {};
    try {
      body = JSON.parse(raw) as RecordedRequest['body'];
    } catch {
      // Keep the raw text; the test decides.
    }
    const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body, raw };
    this.requests.push(recorded);
    let reply = this.queue.shift() ?? this.fallback;
    while (typeof reply === 'function') reply = reply(recorded);
    // A slow answer, so progress output (the spinner) has time to draw.
    if ('text' in reply && reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    const streamOptions = body['stream_options'] as { include_usage?: boolean } | undefined;
    this.send(res, reply, body.stream === true, streamOptions?.include_usage === true);
  }

  private send(res: ServerResponse, reply: Exclude<Reply, (r: RecordedRequest) => Reply>, stream: boolean, streamUsage = false): void {
    if ('hang' in reply) {
      this.hanging.add(res);
      return;
    }
    if ('endless' in reply) {
      this.hanging.add(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => {
        if (reply.endless === 'keep-alive') res.write(': keep-alive\n\n');
        else
          res.write(
            `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta: { content: 'la ' }, finish_reason: null }] })}\n\n`,
          );
      }, reply.everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers });
      res.end(reply.body);
      return;
    }
    if ('raw' in reply) {
      res.writeHead(200, { 'content-type': reply.contentType ?? 'application/json' });
      res.end(reply.raw);
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
      id: `call_${i}_${Date.now()}`,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
    const usage = reply.usage
      ? {
          prompt_tokens: reply.usage.prompt,
          completion_tokens: reply.usage.completion,
          total_tokens: reply.usage.prompt + reply.usage.completion,
        }
      : undefined;
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: 0,
          model: 'fake',
          choices: [
            {
              index: 0,
              finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
              message: { role: 'assistant', content: reply.text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
            },
          ],
          ...(usage ? { usage } : {}),
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null = null): void => {
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    };
    chunk({ role: 'assistant' });
    // Split the text so the client really assembles a stream.
    const parts = reply.text.match(new RegExp(`[\\s\\S]{1,${reply.chunkSize ?? 5}}`, 'gu')) ?? [];
    for (const part of parts) chunk({ content: part });
    if (reply.hangAfter) {
      this.hanging.add(res);
      return;
    }
    toolCalls.forEach((c, index) => {
      chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] });
      const half = Math.ceil(c.function.arguments.length / 2);
      chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments.slice(0, half) } }] });
      chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments.slice(half) } }] });
    });
    chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop');
    // As OpenAI does: the usage report comes in a last chunk with no choices, only when the request asked for it.
    if (usage && streamUsage)
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [], usage })}\n\n`,
      );
    res.write('data: [DONE]\n\n');
    res.end();
  }
}

/** A fresh fake server for every test of the calling file, and the CLI environment that points at it. */
export interface FakeServerPerTest {
  readonly server: FakeOpenAi;
  env(extra?: Record<string, string>): Record<string, string>;
}

export function fakeServerEachTest(
  settings: Record<string, string> = { AUTOPATCH_LLM_API_KEY: 'sk-test', AUTOPATCH_LLM_MODEL: 'fake-model' },
): FakeServerPerTest {
  let current: FakeOpenAi | undefined;
  beforeEach(async () => {
    current = await new FakeOpenAi().start();
  });
  afterEach(async () => {
    await current?.stop();
  });
  const fake = (): FakeOpenAi => {
    if (!current) throw new Error('the fake server runs only inside a test');
    return current;
  };
  return {
    get server(): FakeOpenAi {
      return fake();
    },
    env: (extra = {}) => ({ AUTOPATCH_LLM_BASE_URL: fake().url, ...settings, ...extra }),
  };
}
