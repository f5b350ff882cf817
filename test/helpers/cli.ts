import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest, Reply } from './fake-openai.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the built CLI with a clean environment (only what the test passes), optionally feeding stdin. */
export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.input ?? '');
  });
}

export type Role = 'classifier' | 'extraction' | 'consolidation' | 'main';

/** Which kind of call a recorded request is, from its system prompt. */
export function roleOf(r: RecordedRequest): Role {
  const system = String(r.body.messages?.[0]?.content ?? '');
  if (system.startsWith('Classify the user')) return 'classifier';
  if (system.startsWith('You maintain the long-term memory')) return 'extraction';
  if (system.startsWith('You consolidate candidate memories')) return 'consolidation';
  return 'main';
}

/** The user payload of a Memory worker request. */
export function payloadOf<T>(r: RecordedRequest): T {
  return JSON.parse(String(r.body.messages?.[1]?.content)) as T;
}

/** A router for FakeOpenAi.always: one handler per kind of call. */
export function byRole(handlers: Partial<Record<Role, (r: RecordedRequest) => Reply>>): (r: RecordedRequest) => Reply {
  return (r) => {
    const handler = handlers[roleOf(r)];
    if (handler) return handler(r);
    if (roleOf(r) === 'classifier') return { text: '{"intent":"general_chat"}' };
    if (roleOf(r) === 'extraction') return { text: JSON.stringify({ thread_compaction: '', candidates: [] }) };
    if (roleOf(r) === 'consolidation') return { text: JSON.stringify({ operations: [] }) };
    return { text: 'ok' };
  };
}
