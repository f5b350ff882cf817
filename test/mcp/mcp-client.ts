import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool and returns the raw result. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool that must succeed and returns its structured content. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** The text of a resource. */
  resource(uri: string): Promise<string>;
  /** Closes stdin (the server runs its exit pass) and waits for the process to end. */
  close(): Promise<void>;
}

/** Starts `node dist/cli/bin.cjs mcp …` as a child and connects the SDK's own client to it over stdio. */
export async function connectMcp(repo: string, options: { env?: Record<string, string>; args?: string[] } = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--repo', repo, ...(options.args ?? [])],
    env: options.env ?? {},
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'autopatch-j-test', version: '0.0.0' });
  // A server that died says why: its stderr goes with the error.
  const explained = (error: unknown): Error =>
    new Error(`${error instanceof Error ? error.message : String(error)}\nserver stderr: ${stderr}`);
  await client.connect(transport).catch((error: unknown) => {
    throw explained(error);
  });
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    try {
      return (await client.callTool({ name, arguments: args })) as CallToolResult;
    } catch (error) {
      throw explained(error);
    }
  };
  return {
    client,
    stderr: () => stderr,
    call,
    async ok<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}\nstderr: ${stderr}`);
      return result.structuredContent as T;
    },
    async resource(uri: string): Promise<string> {
      const result = await client.readResource({ uri });
      const first = result.contents[0];
      return first && 'text' in first ? first.text : '';
    },
    close: async () => {
      // The SDK's own close sends SIGTERM when the server has not ended within 2 s, and on a loaded machine an
      // exit pass can take longer (a killed server leaves its claimed job leased until the lease expires).
      // End stdin and wait for the exit pass instead, as a patient client would.
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      if (child && child.exitCode === null && child.signalCode === null) {
        const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
        child.stdin?.end();
        await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
      }
      await client.close();
    },
  };
}

/** The text of a tool result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
