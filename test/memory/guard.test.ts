import { describe, expect, it } from 'vitest';
import { MemoryClosedError, MemoryManager, MemorySchemaError, ScriptedLlm } from '../../src/index.js';
import { openMemory } from '../helpers/memory.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

// M-2.4: every public method of MemoryManager passes the one guard. `healthy` work is refused while degraded
// (MemorySchemaError); `diagnostic` work (status, show, export, clear, open-job counts) keeps working on what a
// degraded Memory can still read; `state` work answers from the manager alone. Once closed, everything but
// `state` work throws MemoryClosedError.

type Access = 'healthy' | 'diagnostic' | 'state';

const handle = { turnId: 'turn-x', threadId: 'thread-x', sequence: 1 };

/** Each public method, how the contract lets it behave, and a call with arguments of the right shape. */
const METHODS: Record<string, { access: Access; call: (memory: MemoryManager) => unknown }> = {
  startupNotices: { access: 'state', call: (m) => m.startupNotices() },
  status: { access: 'diagnostic', call: (m) => m.status() },
  health: { access: 'state', call: (m) => m.health() },
  openJobs: { access: 'diagnostic', call: (m) => m.openJobs() },
  retry: { access: 'healthy', call: (m) => m.retry() },
  beginTurn: { access: 'healthy', call: (m) => m.beginTurn({ intent: 'general_chat', userText: 'hello' }) },
  completeTurn: { access: 'healthy', call: (m) => m.completeTurn(handle, 'hi') },
  failTurn: { access: 'healthy', call: (m) => m.failTurn(handle, new Error('boom')) },
  heartbeat: { access: 'healthy', call: (m) => m.heartbeat() },
  history: { access: 'healthy', call: (m) => m.history(handle) },
  routingContext: { access: 'healthy', call: (m) => m.routingContext(handle) },
  routingItems: { access: 'healthy', call: (m) => m.routingItems(handle) },
  bindActiveThread: { access: 'healthy', call: (m) => m.bindActiveThread() },
  search: { access: 'healthy', call: (m) => m.search(handle, 'pnpm') },
  read: { access: 'healthy', call: (m) => m.read(handle, 'm1234') },
  list: { access: 'healthy', call: (m) => m.list() },
  show: { access: 'diagnostic', call: (m) => m.show('m1234') },
  forget: { access: 'healthy', call: (m) => m.forget('m1234') },
  newThread: { access: 'healthy', call: (m) => m.newThread() },
  clear: { access: 'diagnostic', call: (m) => m.clear() },
  export: { access: 'diagnostic', call: (m) => m.export() },
  restore: { access: 'healthy', call: (m) => m.restore('/nonexistent/memory-export.json') },
  refused: { access: 'healthy', call: (m) => m.refused() },
  suggestions: { access: 'healthy', call: (m) => m.suggestions() },
  changes: { access: 'healthy', call: (m) => m.changes({ since: 0 }) },
  remember: { access: 'healthy', call: (m) => m.remember({ text: 'I use pnpm' }) },
  keep: { access: 'healthy', call: (m) => m.keep('s12345') },
  dismiss: { access: 'healthy', call: (m) => m.dismiss('s12345') },
  processDue: { access: 'healthy', call: (m) => m.processDue({ force: true }) },
  start: { access: 'healthy', call: (m) => m.start() },
  backgroundWork: { access: 'state', call: (m) => m.backgroundWork() },
  goneProcessLeases: { access: 'state', call: (m) => m.goneProcessLeases() },
  close: { access: 'state', call: (m) => m.close() },
};

/** The public methods of MemoryManager as its prototype has them: a new method must be classified above. */
function publicMethods(): string[] {
  return Object.getOwnPropertyNames(MemoryManager.prototype).filter(
    (name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(MemoryManager.prototype, name)?.value === 'function',
  );
}

/** What a call ends with: its error, sync or async, or null. */
async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return null;
  } catch (error) {
    return error;
  }
}

/** A project whose database holds an object the catalog does not know: degraded, with a readable snapshot. */
async function degradedRepo(): Promise<string> {
  const repo = tempRepo();
  await MemoryManager.open({ repoRoot: repo }).close();
  withRawDb(dbPathOf(repo), (raw) => raw.exec('CREATE TABLE foo (x)'));
  return repo;
}

describe('the one guard of MemoryManager (M-2.4)', () => {
  it('classifies every public method of the prototype, and nothing else', () => {
    expect(publicMethods().sort()).toEqual(Object.keys(METHODS).sort());
  });

  it.each(Object.entries(METHODS))('%s on a closed Memory: refused unless it reads only the manager', async (name, { access, call }) => {
    const memory = openMemory({ repoRoot: tempRepo(), llm: new ScriptedLlm() });
    await memory.close();
    const error = await errorOf(() => call(memory));
    if (access === 'state') expect(error, name).toBeNull();
    else expect(error, name).toBeInstanceOf(MemoryClosedError);
  });

  it.each(Object.entries(METHODS))('%s on a degraded Memory: as the contract says', async (name, { access, call }) => {
    const memory = openMemory({ repoRoot: await degradedRepo(), llm: new ScriptedLlm() });
    expect(memory.health().health).toBe('degraded');
    const error = await errorOf(() => call(memory));
    if (access === 'healthy') {
      expect(error, name).toBeInstanceOf(MemorySchemaError);
      expect((error as Error).message, name).toMatch(/foo/);
    } else {
      // Diagnosis and recovery work on what can still be read; `show` of an unknown id says it is not found.
      expect(error instanceof MemorySchemaError || error instanceof MemoryClosedError, `${name}: ${String(error)}`).toBe(false);
    }
  });

  it('a degraded Memory still answers the diagnostic calls with what they are for', async () => {
    const memory = openMemory({ repoRoot: await degradedRepo() });
    expect(memory.status()).toMatchObject({ health: 'degraded', degradedReason: expect.stringMatching(/foo/) });
    expect(memory.openJobs()).toEqual({ pending: 0, leased: 0, retryWait: 0, failed: 0 });
    expect(() => memory.show('m1234')).toThrow(/No memory/);
    expect(memory.export().rawBytesOnly).toBe(false);
    expect(memory.clear().recreated).toBe(true);
    expect(memory.health()).toEqual({ health: 'healthy', degradedReason: null });
  });
});
