import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { CLASSIFIER_SYSTEM_PROMPT } from '../../src/agent/intent-router.js';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import { INSTRUCTION_BUDGET } from '../../src/workspace/project-instructions.js';
import { ReviewWorkspace } from '../../src/workspace/review-workspace.js';
import { type RecordedRequest, fakeServerEachTest } from '../helpers/fake-openai.js';
import { consolidateWith, extractWith, quoteUser } from '../helpers/scripted.js';
import { tempRepo } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest();

const isClassifier = (r: RecordedRequest): boolean => r.body.messages?.[0]?.content === CLASSIFIER_SYSTEM_PROMPT;
const systemOf = (r: RecordedRequest): string => String(r.body.messages?.[0]?.content);

function routeTo(intent: string): void {
  fake.server.always((r) => (isClassifier(r) ? { text: JSON.stringify({ intent }) } : { text: 'answer' }));
}

/** A project whose Memory holds one preference, with an agent on the real provider and the fake server. */
async function project(): Promise<{ repo: string; memory: MemoryManager; agent: (from?: string) => Agent }> {
  const repo = tempRepo();
  const scripted = new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith((t) =>
        t.user.includes('以后') ? [quoteUser('user_preference', 'MEMORY-PREF 回答先给结论', t, '以后回答先给结论')] : [],
      ),
    )
    .always('memory_consolidation', consolidateWith());
  const seed = MemoryManager.open({ repoRoot: repo, llm: scripted });
  seed.completeTurn(seed.beginTurn({ intent: 'general_chat', userText: '以后回答先给结论。' }), '好的');
  await seed.processDue({ force: true });
  await seed.close();
  const memory = MemoryManager.open({ repoRoot: repo });
  const workspace = new ReviewWorkspace(repo);
  const llm = fake.server.provider();
  return {
    repo,
    memory,
    agent: (from) => new Agent({ llm, memory, repoRoot: repo, workspace, ...(from ? { instructionsFrom: from } : {}) }),
  };
}

describe('requests carry the project instruction files (M-1.2: source, not Memory)', () => {
  it('an ordinary request carries AGENTS.md beside the Memory context, marked as a project file', async () => {
    const { repo, memory, agent } = await project();
    writeFileSync(join(repo, 'AGENTS.md'), '# Team rules\nAGENTS-RULE: every public function has a doc comment.\n');
    routeTo('general_chat');
    await agent().handle('hello');
    const main = fake.server.requests.filter((r) => !isClassifier(r));
    expect(main).toHaveLength(1);
    const system = systemOf(main[0]!);
    expect(system).toContain('----- AGENTS.md -----\n# Team rules\nAGENTS-RULE: every public function has a doc comment.');
    expect(system).toContain('They are source, not Memory');
    expect(system).toContain('MEMORY-PREF');
    // Project files come before the Memory context, which keeps its own boundary note.
    expect(system.indexOf('AGENTS-RULE')).toBeLessThan(system.indexOf('MEMORY-PREF'));
    expect(system).toContain('Memory is not source evidence');
    await memory.close();
  });

  it('a repair request carries the instruction files too, and still no Memory (M-1.1)', async () => {
    const { repo, memory, agent } = await project();
    writeFileSync(join(repo, 'AGENTS.md'), 'AGENTS-RULE: never use var.\n');
    writeFileSync(join(repo, 'CLAUDE.md'), 'CLAUDE-RULE: tests first.\n');
    routeTo('code_audit');
    await agent().handle('audit src');
    const main = fake.server.requests.filter((r) => !isClassifier(r));
    const system = systemOf(main[0]!);
    expect(system).toContain('AGENTS-RULE: never use var.');
    expect(system).toContain('CLAUDE-RULE: tests first.');
    expect(system).not.toContain('MEMORY-PREF');
    expect(system).not.toContain('回答先给结论');
    expect(main[0]!.body.messages).toHaveLength(2);
    await memory.close();
  });

  it('reads the files again for every request, and the nested AGENTS.md of the start folder', async () => {
    const { repo, memory, agent } = await project();
    mkdirSync(join(repo, 'api'));
    writeFileSync(join(repo, 'api', 'AGENTS.md'), 'API-RULE: JSON only.\n');
    routeTo('general_chat');
    const inApi = agent(join(repo, 'api'));
    await inApi.handle('first');
    writeFileSync(join(repo, 'AGENTS.md'), 'ADDED-LATER\n');
    await inApi.handle('second');
    const [first, second] = fake.server.requests.filter((r) => !isClassifier(r)).map(systemOf);
    expect(first).toContain('API-RULE: JSON only.');
    expect(first).not.toContain('ADDED-LATER');
    expect(second!.indexOf('ADDED-LATER')).toBeLessThan(second!.indexOf('API-RULE'));
    await memory.close();
  });

  it('a 1 MB AGENTS.md is cut to the budget with a note; a link out of the project is not followed', async () => {
    const { repo, memory, agent } = await project();
    writeFileSync(join(repo, 'AGENTS.md'), 'BIG-RULE line\n'.repeat(80_000));
    const outside = tempRepo();
    writeFileSync(join(outside, 'notes.md'), 'OUTSIDE-TEXT\n');
    symlinkSync(join(outside, 'notes.md'), join(repo, 'CLAUDE.md'));
    routeTo('general_chat');
    await agent().handle('hello');
    const system = systemOf(fake.server.requests.filter((r) => !isClassifier(r))[0]!);
    expect(system).toContain('BIG-RULE line');
    expect(system).toMatch(/\[cut by autopatch-j: AGENTS\.md has 1,120,000 bytes; the first [\d,]+ characters are shown/);
    expect(system).not.toContain('OUTSIDE-TEXT');
    const block = system.slice(system.indexOf('Project instruction files'), system.indexOf('characters in all)]') + 19);
    expect(Array.from(block).length).toBeLessThanOrEqual(INSTRUCTION_BUDGET);
    expect(Array.from(block).length).toBeGreaterThan(INSTRUCTION_BUDGET - 300);
    await memory.close();
  });

  it('without instruction files the system message is as before', async () => {
    const { memory, agent } = await project();
    routeTo('code_audit');
    await agent().handle('audit');
    expect(systemOf(fake.server.requests.filter((r) => !isClassifier(r))[0]!)).not.toContain('Project instruction files');
    await memory.close();
  });
});
