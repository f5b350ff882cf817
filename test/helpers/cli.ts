import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { collect } from './child.js';
import type { ConsolidationPayload } from '../../src/memory/pipeline/contracts.js';
import type { RecordedRequest, Reply } from './fake-openai.js';

const CLI = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the built CLI with a clean environment (only what the test passes), optionally feeding stdin. */
export const CLI_PATH = CLI;

export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string | Buffer; timeoutMs?: number; cwd?: string } = {},
): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  child.stdin.end(options.input ?? '');
  const result = await collect(child, options.timeoutMs ?? 60_000);
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
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

/** A consolidation answer that creates one memory per candidate, titled and worded by the candidate's title. */
export function createAll(r: RecordedRequest): Reply {
  return {
    text: JSON.stringify({
      operations: payloadOf<ConsolidationPayload>(r).candidates.map((c) => ({
        operation: 'create',
        candidate_ids: [c.candidate_id],
        target_id: null,
        title: c.title,
        content: c.title,
        synopsis: '',
        aliases: c.aliases,
        keywords: [],
      })),
    }),
  };
}
