import { afterEach } from 'vitest';
import { MemoryManager } from '../../src/memory/manager.js';

const opened: MemoryManager[] = [];

afterEach(async () => {
  // Closed newest first, without the exit pass: a test that wants one closes its Memory itself.
  while (opened.length > 0) await opened.pop()!.close();
});

/** Opens a Memory that is closed after the test (closing it twice is harmless). */
export function openMemory(options: Parameters<typeof MemoryManager.open>[0]): MemoryManager {
  const memory = MemoryManager.open(options);
  opened.push(memory);
  return memory;
}
