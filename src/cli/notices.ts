import type { Surface } from './commands/command-output.js';
import type { MemoryManager } from '../memory/manager.js';
import type { MemoryChange } from '../memory/types.js';
import type { Output } from './output.js';
import { noticeLines } from './render/notices.js';
import { styleFor } from './render/style.js';

/** A change, as the board remembers having told it. */
function keyOf(change: MemoryChange): string {
  return `${change.action}\u0000${change.id}\u0000${change.at}`;
}

/**
 * M-11.2: what the background Memory did since the last look, each change told once. Reads `changes()`
 * from the last change seen on (inclusive, so a commit in the same millisecond is not missed; what was told
 * already is skipped). Never throws: a busy, degraded or closed Memory has nothing to tell this time.
 */
export class MemoryNotices {
  private since: number;
  private readonly told = new Set<string>();

  constructor(
    private readonly memory: Pick<MemoryManager, 'changes' | 'health'>,
    start: number = Date.now(),
  ) {
    this.since = start;
  }

  /** The changes not told yet, oldest first; they count as told from now on. */
  take(): MemoryChange[] {
    let changes: MemoryChange[];
    try {
      if (this.memory.health().health !== 'healthy') return [];
      changes = this.memory.changes({ since: this.since });
    } catch {
      return [];
    }
    const fresh = changes.filter((c) => !this.told.has(keyOf(c)));
    this.markTold(fresh);
    return fresh;
  }

  /** Changes the user already saw another way (the answer of `/remember` or `/memory keep`). */
  markTold(changes: readonly MemoryChange[]): void {
    for (const change of changes) {
      this.told.add(keyOf(change));
      this.since = Math.max(this.since, change.at);
    }
    // Only changes at the newest time seen can come back from the next read.
    for (const key of this.told) if (Number(key.slice(key.lastIndexOf('\u0000') + 1)) < this.since) this.told.delete(key);
  }
}

/** Writes notice lines dim on stderr; nothing when there are none or notices are off. */
export function printNotices(output: Output, changes: readonly MemoryChange[], options: { enabled: boolean; commands: Surface }): void {
  if (!options.enabled || changes.length === 0) return;
  const style = styleFor(output, 'err');
  for (const line of noticeLines(changes, options.commands)) output.errRich(`${style.dim(line)}\n`);
}
