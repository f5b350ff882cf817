import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The largest JSON-RPC message `autopatch-j mcp` reads: 4 MiB, room for a `memory_record_turn` at its limits
 * (100,000 + 200,000 characters, even written entirely as `\uXXXX` escapes) and far below what would stall the
 * server. A longer line is answered with a JSON-RPC error and dropped; the server keeps serving.
 */
export const MCP_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** JSON-RPC error codes (https://www.jsonrpc.org/specification#error_object). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Bytes kept from each end of an oversized line, to find its request id. */
const ID_WINDOW = 512;

type RequestId = string | number;

/**
 * A stdio transport for the MCP server (newline-delimited JSON-RPC, as the SDK's own) that bounds every
 * message: the bytes of a line over the limit are counted, never kept, and the line is answered with
 * `Invalid Request` (with the request's id when it can be read from the line's first or last bytes, so the
 * client's call ends instead of waiting). A line that is not JSON or not JSON-RPC is answered with the
 * matching error as well; neither closes the transport.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | null = null;
  private tail: Buffer = Buffer.alloc(0);
  private oversized = false;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MCP_MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.reset();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }

  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, start);
      if (newline < 0) {
        this.append(data.subarray(start));
        return;
      }
      this.append(data.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
  };

  private append(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (!this.oversized && this.size > this.maxBytes) {
      // Keep only the ends, to answer with the request's id; the rest is dropped as it arrives.
      const kept = Buffer.concat(this.parts);
      this.head = kept.subarray(0, ID_WINDOW);
      this.tail = kept.subarray(Math.max(0, kept.length - ID_WINDOW));
      this.parts = [];
      this.oversized = true;
    }
    if (this.oversized) {
      this.tail = Buffer.concat([this.tail, part.subarray(Math.max(0, part.length - ID_WINDOW))]);
      if (this.tail.length > ID_WINDOW) this.tail = this.tail.subarray(this.tail.length - ID_WINDOW);
      return;
    }
    this.parts.push(part);
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
    this.head = null;
    this.tail = Buffer.alloc(0);
    this.oversized = false;
  }

  private endLine(): void {
    if (this.oversized) {
      const id = requestIdIn(this.head?.toString('utf8') ?? '', this.tail.toString('utf8'));
      const bytes = this.size;
      this.reset();
      this.reply(
        id,
        INVALID_REQUEST,
        `message of ${bytes} bytes refused: autopatch-j mcp reads messages of at most ${this.maxBytes} bytes`,
      );
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.reset();
    if (line.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(null, PARSE_ERROR, 'Parse error: the line is not JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.reply(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 message',
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

/**
 * The id of a request whose line was too long to read, from its first or last bytes: `{"jsonrpc":"2.0","id":…`
 * at the start, or `…,"id":…}` at the end (where the SDK clients put it). Null when neither is there.
 */
export function requestIdIn(head: string, tail: string): RequestId | null {
  const value =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")/u.exec(head)?.[1] ??
    /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/u.exec(tail)?.[1];
  if (value === undefined) return null;
  return value.startsWith('"') ? value.slice(1, -1) : Number(value);
}
