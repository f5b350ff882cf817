import { parentPort } from 'node:worker_threads';
import type { ExtractionRead } from './contracts.js';
import { screenCandidates } from './extraction.js';
import type { ValidationContext } from './validation.js';

// The worker thread of screening.ts: validates extraction answers of large batches off the main event loop.
// A failure answers null, and the caller validates on its own loop instead.
parentPort?.on('message', (message: { id: number; read: ExtractionRead; context: ValidationContext }) => {
  let result: ReturnType<typeof screenCandidates> | null = null;
  try {
    result = screenCandidates(message.read, message.context);
  } catch {
    result = null;
  }
  parentPort!.postMessage({ id: message.id, result });
});
