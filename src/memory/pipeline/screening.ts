import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { ExtractionRead } from './contracts.js';
import { type Screened, Screening } from './extraction.js';
import type { ValidationContext } from './validation.js';

/**
 * Validation of an extraction answer without holding the event loop (issue "Safe hands", item 3): Ctrl-C,
 * lease heartbeats and MCP calls must stay answered while a batch is checked. A batch whose turns hold more
 * than `THREAD_THRESHOLD_CHARS` is validated on a worker thread (the same code, `screen-thread.js`); a smaller
 * one candidate at a time on the loop, yielding between candidates. Where no thread can run (the sources run
 * under a TypeScript loader, or the thread fails), validation falls back to the loop.
 */

export type { Screened } from './extraction.js';

/** Beyond this much RAW text in a batch, one candidate's check can take tens of milliseconds: off the loop. */
export const THREAD_THRESHOLD_CHARS = 50_000;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function batchChars(context: ValidationContext): number {
  let n = context.adjacent ? context.adjacent.userText.length + (context.adjacent.assistantText?.length ?? 0) : 0;
  for (const turn of context.turns.values()) n += turn.userText.length + (turn.assistantText?.length ?? 0);
  return n;
}

export async function screenOffLoop(read: ExtractionRead, context: ValidationContext): Promise<Screened> {
  if (batchChars(context) > THREAD_THRESHOLD_CHARS) {
    const onThread = await screenOnThread(read, context);
    if (onThread) return onThread;
  }
  return screenSliced(read, context);
}

/** One candidate at a time, yielding to the loop in between; the same result as one `screenCandidates` call. */
export async function screenSliced(read: ExtractionRead, context: ValidationContext): Promise<Screened> {
  const screening = new Screening(read, context);
  while (screening.screenNext()) if (!screening.done) await yieldToLoop();
  return screening.result;
}

let thread: { worker: Worker; next: number; waiting: Map<number, (r: Screened | null) => void> } | null | undefined;

/** Where the thread's script is: beside this module, or, from the command line's bundle, in the compiled tree. */
function threadScript(): string | null {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.js') && !here.endsWith('.cjs')) return null;
  const path =
    basename(here) === 'autopatch-j.cjs'
      ? join(dirname(here), '..', 'memory', 'pipeline', 'screen-thread.js')
      : join(dirname(here), 'screen-thread.js');
  return existsSync(path) ? path : null;
}

function startThread(): typeof thread {
  const script = threadScript();
  if (!script) return null;
  // Loaded on first need, and with require: the command line's bundle holds no import().
  const { Worker: ThreadWorker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const worker = new ThreadWorker(script);
  const state = { worker, next: 1, waiting: new Map<number, (r: Screened | null) => void>() };
  const failAll = (): void => {
    for (const done of state.waiting.values()) done(null);
    state.waiting.clear();
    thread = null;
  };
  worker.on('message', (message: { id: number; result: Screened | null }) => {
    const done = state.waiting.get(message.id);
    state.waiting.delete(message.id);
    if (state.waiting.size === 0) worker.unref();
    done?.(message.result);
  });
  worker.on('error', failAll);
  worker.on('exit', failAll);
  worker.unref();
  return state;
}

export async function screenOnThread(read: ExtractionRead, context: ValidationContext): Promise<Screened | null> {
  if (thread === undefined) thread = startThread();
  const current = thread;
  if (!current) return null;
  const id = current.next++;
  return new Promise((resolve) => {
    current.waiting.set(id, resolve);
    current.worker.ref();
    current.worker.postMessage({ id, read, context });
  });
}

/** Ends the validation thread (a closing manager); a later batch starts a new one. */
export async function stopScreenThread(): Promise<void> {
  const current = thread;
  thread = undefined;
  if (current) await current.worker.terminate();
}
