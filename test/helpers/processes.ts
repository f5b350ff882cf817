import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { FIXTURES } from './child.js';

const running: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  while (running.length > 0) running.pop()!.kill('SIGKILL');
});

/** A long-running fixture process, killed after the test, with a way to wait for a line of its output. */
export interface LiveChild {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the next stdout line (rejects when the process exits first). */
  nextLine(): Promise<string>;
  send(line: string): void;
}

export function startFixture(script: string, args: string[]): LiveChild {
  const child = spawn(process.execPath, [FIXTURES + script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  running.push(child);
  const lines: string[] = [];
  const waiters: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    let index: number;
    while ((index = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, index);
      buffered = buffered.slice(index + 1);
      const waiter = waiters.shift();
      if (waiter) waiter.resolve(line);
      else lines.push(line);
    }
  });
  child.on('close', (code) => {
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(`${script} exited with ${code}: ${stderr}`));
  });
  return {
    child,
    nextLine: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    send: (line) => child.stdin.write(`${line}\n`),
  };
}
