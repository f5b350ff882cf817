import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requestIdIn } from '../../src/mcp/bounded-stdio.js';
import { byRole, payloadOf, roleOf } from '../helpers/cli.js';
import { tempRepo } from '../helpers/temp-repo.js';
import { CLI, connectMcp, until } from './mcp-client.js';
import { useFakeModel } from './scripted-model.js';

const { model, env } = useFakeModel();

/** A raw JSON-RPC session with the server: send lines, wait for the answer with a given id. */
function rawServer(repo: string): {
  send: (line: string) => void;
  answer: (id: number | string | null) => Promise<Record<string, unknown>>;
  end: () => Promise<{ code: number | null; stderr: string }>;
} {
  const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers: Record<string, unknown>[] = [];
  const waiting: { id: unknown; resolve: (a: Record<string, unknown>) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    let at: number;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffered.slice(0, at)) as Record<string, unknown>;
      buffered = buffered.slice(at + 1);
      const waiter = waiting.findIndex((w) => w.id === message.id);
      if (waiter >= 0) waiting.splice(waiter, 1)[0]!.resolve(message);
      else answers.push(message);
    }
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    send: (line) => void child.stdin.write(`${line}\n`),
    answer: (id) => {
      const found = answers.findIndex((a) => a.id === id);
      if (found >= 0) return Promise.resolve(answers.splice(found, 1)[0]!);
      return new Promise((resolve) => waiting.push({ id, resolve }));
    },
    end: async () => {
      child.stdin.end();
      return { code: await closed, stderr };
    },
  };
}

describe('autopatch-j mcp: message size (issue "Safe hands", item 3)', () => {
  it('an 11 MB line gets a JSON-RPC error with its id, a broken line a parse error, and the server keeps answering', async () => {
    const server = rawServer(tempRepo());
    server.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    );
    expect(await server.answer(1)).toMatchObject({ result: { serverInfo: { name: 'autopatch-j' } } });
    server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    // The SDK's clients put the id last, after params: the server finds it in the line's last bytes.
    const huge = 'x'.repeat(11 * 1024 * 1024);
    server.send(
      JSON.stringify({
        method: 'tools/call',
        params: { name: 'memory_record_turn', arguments: { user: huge, assistant: 'a' } },
        jsonrpc: '2.0',
        id: 2,
      }),
    );
    const refused = await server.answer(2);
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32600 } });
    expect(String((refused.error as { message: string }).message)).toMatch(/message of 11534\d{3} bytes refused: .* at most 4194304 bytes/);
    server.send('{"jsonrpc": "2.0", "id": 3, "method": ');
    expect(await server.answer(null)).toMatchObject({ error: { code: -32700 } });
    const started = Date.now();
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'memory_status', arguments: {} } }));
    expect(await server.answer(4)).toMatchObject({ result: { structuredContent: { health: 'healthy' } } });
    expect(Date.now() - started).toBeLessThan(5_000);
    const ended = await server.end();
    expect(ended.code, ended.stderr).toBe(0);
  });

  it('finds the id of an oversized request at either end of the line', () => {
    expect(requestIdIn('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"user":"xx', '')).toBe(7);
    expect(requestIdIn('{"method":"tools/call","params":{"arguments":{"id":"mabc","user":"xx', 'xxxx"}},"jsonrpc":"2.0","id":"r-9"}')).toBe(
      'r-9',
    );
    expect(requestIdIn('{"method":"x","params":{"user":"xx', 'xxxxxxx"}}')).toBeNull();
  });

  it('answers memory_status while a batch of long turns is validated (validation runs off the event loop)', async () => {
    const repo = tempRepo();
    // Two turns of ~99,000 characters, the quotes at their very end, written with ASCII marks (the folded path).
    const user = (n: number): string => `${'\n'.repeat(99_000)}以后回答先给结论${n}。`;
    let answeredAt = 0;
    model().always(
      byRole({
        extraction: (r) => {
          const turns = payloadOf<{ turns: { turn_id: string }[] }>(r).turns;
          answeredAt = Date.now() + 200;
          const candidates = turns.flatMap((t, n) =>
            Array.from({ length: 12 }, (_, k) => ({
              kind: 'user_preference',
              title: `回答先给结论${n} ${k}`,
              content: `回答先给结论${n}`,
              aliases: [],
              sources: [{ turn_id: t.turn_id, role: 'user', quote: `以后回答先给结论${n}.` }],
            })),
          );
          return { text: JSON.stringify({ thread_compaction: '', candidates }), delayMs: 200 };
        },
      }),
    );
    const session = await connectMcp(repo, { env: env() });
    try {
      await session.ok('memory_record_turn', { user: user(0), assistant: 'ok' });
      await session.ok('memory_record_turn', { user: user(1), assistant: 'ok' });
      await until(async () => (model().requests.some((r) => roleOf(r) === 'extraction') ? true : undefined), 'the extraction call');
      const samples: { at: number; ms: number; leased: number }[] = [];
      for (;;) {
        const sent = Date.now();
        const status = await session.ok<{ jobs: { leased: number; pending: number } }>('memory_status');
        samples.push({ at: sent, ms: Date.now() - sent, leased: status.jobs.leased });
        if (status.jobs.leased === 0 && status.jobs.pending === 0 && sent > answeredAt) break;
      }
      // Answered while the answer was being validated (after the model answered, before the batch committed).
      const during = samples.filter((s) => s.at > answeredAt + 20 && s.leased > 0);
      console.log(
        `memory_status during validation: ${during.length} answers, slowest ${Math.max(...during.map((s) => s.ms))} ms; ` +
          `all: ${samples.length}, slowest ${Math.max(...samples.map((s) => s.ms))} ms`,
      );
      expect(during.length).toBeGreaterThan(2);
      expect(Math.max(...samples.map((s) => s.ms))).toBeLessThan(2_000);
    } finally {
      await session.close();
    }
  }, 60_000);
});
