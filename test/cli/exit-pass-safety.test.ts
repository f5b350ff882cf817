import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { exitPass } from '../../src/cli/exit-pass.js';
import { ScriptedLlm } from '../../src/index.js';
import { startFixture } from '../helpers/processes.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

describe('the exit pass never throws to main', () => {
  it('a database another process holds locked during the exit pass: reported, leaving continues, the job stays queued', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', () => ({ content: '{"thread_compaction":"","candidates":[]}' }));
    const memory = openMemory({ repoRoot: repo, llm, busyTimeoutMs: 20 });
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: 'one pending job' }), 'ok');
    const holder = startFixture('lock-holder.mjs', [dbPathOf(repo), 'write']);
    expect(await holder.nextLine()).toBe('locked');
    const errors: string[] = [];
    const output = {
      out: () => {},
      err: (t: string) => void errors.push(t),
      outRich: () => {},
      errRich: (t: string) => void errors.push(t),
      control: () => {},
      interactive: false,
    };
    // The session's model (a flag for the exit pass here; the Memory worker uses the scripted model).
    const ctx = { memory, output, llm, config: { debug: false } } as unknown as CliContext;
    await expect(exitPass(ctx)).resolves.toMatchObject({ ok: false });
    expect(errors.join('')).toMatch(/exit pass stopped: MemoryStorageError: .*database is locked/);
    holder.child.kill('SIGKILL');
    await new Promise((resolve) => holder.child.once('close', resolve));
    withRawDb(dbPathOf(repo), (db) =>
      expect(db.prepare("SELECT count(*) AS n FROM memory_jobs WHERE status = 'pending'").get()).toEqual({ n: 1 }),
    );
  });
});
