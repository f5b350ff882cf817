import { describe, expect, it } from 'vitest';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { shortCandidateId } from '../../src/shared/ids.js';
import { consolidateWith, extractWith, quoteUser } from '../helpers/scripted.js';
import { tempRepo } from '../helpers/temp-repo.js';

/** Each turn proposes one preference quoting the whole user text (its first 60 characters as title); the gate decides. */
function setup(repo = tempRepo()) {
  const llm = new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith((t) => [quoteUser('user_preference', t.user.slice(0, 60), t)]),
    )
    .always('memory_consolidation', consolidateWith());
  return { repo, memory: MemoryManager.open({ repoRoot: repo, llm }) };
}

async function say(memory: MemoryManager, text: string): Promise<void> {
  memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: text }), 'OK');
  await memory.processDue({ force: true });
}

describe('INTERFACES §1 refused(): why a candidate was not remembered', () => {
  it('lists recent refusals newest first with kind, title, clipped quote, reason, turn and time; status keeps the counts', async () => {
    const { memory } = setup();
    await say(memory, '这次用英文回答就行。');
    await say(memory, '同事说以后都用 tabs。');
    await say(memory, '以后回答先给结论。');
    const long = `For this answer only, by default ${'explain every step in great detail '.repeat(10)}.`;
    await say(memory, long);
    const refused = memory.refused();
    expect(refused.map((r) => r.reason)).toEqual(['temporary', 'temporary']);
    expect(refused[1]).toMatchObject({
      kind: 'user_preference',
      title: '这次用英文回答就行。',
      quote: '这次用英文回答就行。',
      keepable: true,
    });
    expect(refused[0]!.quote.length).toBeLessThanOrEqual(200);
    expect(refused[0]!.quote.endsWith('…')).toBe(true);
    expect(new Set(refused.map((r) => r.candidateId)).size).toBe(2);
    for (const r of refused) {
      expect(typeof r.turnId).toBe('string');
      expect(r.at).toBeGreaterThan(0);
    }
    expect(memory.refused({ limit: 1 }).map((r) => r.reason)).toEqual(['temporary']);
    // M-5.7: a rule reported from someone else is held for the user, not refused.
    expect(memory.suggestions()).toMatchObject([{ reason: 'third_party', quote: '同事说以后都用 tabs。' }]);
    expect(memory.list().map((i) => i.title)).toEqual(['以后回答先给结论。']);
    expect(memory.status().filteredCandidates).toMatchObject({ total: 2, byReason: { temporary: 2 } });
    await memory.close();
  });

  it('is empty for a fresh Memory', async () => {
    const { memory } = setup();
    expect(memory.refused()).toEqual([]);
    await memory.close();
  });
});

describe('CLI memory refused', () => {
  it('prints the refusals with quote and reason, and --json gives the RefusedCandidate list', async () => {
    const { repo, memory } = setup();
    await say(memory, 'For this answer only, from now on use tables.');
    await memory.close();
    const text = await runCli(['memory', 'refused', '--repo', repo]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('For this answer only, from now on use tables.');
    expect(text.stdout).toContain('temporary');
    const json = await runCli(['memory', 'refused', '--repo', repo, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const list = JSON.parse(json.stdout) as { reason: string; quote: string; kind: string; at: string }[];
    expect(list[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(list).toMatchObject([
      { reason: 'temporary', kind: 'user_preference', quote: 'For this answer only, from now on use tables.', keepable: true },
    ]);
    // M-5.7: a refusal of the reading says it can be kept, and how.
    const short = shortCandidateId((list[0] as unknown as { candidateId: string }).candidateId);
    expect(text.stdout).toContain(`  ${short}  `);
    expect(text.stdout).toContain(
      `can be kept (you overrule how it was read): autopatch-j memory keep ${short} · autopatch-j memory dismiss ${short}`,
    );
  });
});
