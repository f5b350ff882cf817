import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { CLASSIFIER_SYSTEM_PROMPT } from '../../src/agent/intent-router.js';
import { MemoryManager, ScriptedLlm } from '../../src/index.js';
import { ReviewWorkspace } from '../../src/workspace/review-workspace.js';
import { type RecordedRequest, type Reply, FakeOpenAi } from '../helpers/fake-openai.js';
import { consolidateWith, extractWith, quoteUser } from '../helpers/scripted.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

let server: FakeOpenAi;
beforeEach(async () => {
  server = await new FakeOpenAi().start();
});
afterEach(async () => {
  await server.stop();
});

const isClassifier = (r: RecordedRequest): boolean => r.body.messages?.[0]?.content === CLASSIFIER_SYSTEM_PROMPT;
const mainRequests = (): RecordedRequest[] => server.requests.filter((r) => !isClassifier(r));

/** Routes classifier calls to an intent and main calls to the given replies. */
function script(intent: string | Reply, ...main: Reply[]): void {
  const queue = [...main];
  server.always((r) => {
    if (isClassifier(r)) return typeof intent === 'string' ? { text: JSON.stringify({ intent }) } : intent;
    return queue.shift() ?? { text: 'final answer' };
  });
}

/** A repo with one source file and a Memory holding a preference and a discussion. */
async function setup(): Promise<{ repo: string; memory: MemoryManager; agent: Agent; workspace: ReviewWorkspace }> {
  const repo = tempRepo();
  mkdirSync(join(repo, 'src'));
  writeFileSync(join(repo, 'src', 'parser.ts'), 'export function parse(input: string) {\n  return input.split(",");\n}\n');
  const scripted = new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith(
        (t) => (t.user.includes('以后') ? [quoteUser('user_preference', '回答先给结论', t, '以后回答先给结论')] : []),
        () => 'COMPACTION-TEXT: discussing the parser',
      ),
    )
    .always('memory_consolidation', consolidateWith());
  const seed = MemoryManager.open({ repoRoot: repo, llm: scripted });
  const h = seed.beginTurn({ intent: 'general_chat', userText: '以后回答先给结论。' });
  seed.completeTurn(h, 'EARLIER-ANSWER: 好的');
  await seed.processDue({ force: true });
  await seed.close();
  const memory = MemoryManager.open({ repoRoot: repo });
  const workspace = new ReviewWorkspace(repo);
  const llm = server.provider();
  return { repo, memory, agent: new Agent({ llm, memory, repoRoot: repo, workspace }), workspace };
}

describe('ordinary profile (M-4.1, M-3.2)', () => {
  it('stores the RAW text before the model call and sends routing context, history and Memory tools', async () => {
    const { repo, memory, agent } = await setup();
    let seenOpenTurn = false;
    script('code_explain', (r) => {
      seenOpenTurn =
        withRawDb(
          dbPathOf(repo),
          (db) => db.prepare("SELECT count(*) AS n FROM turns WHERE state = 'open' AND user_text = ?").get('解释 parse') as { n: number },
        ).n === 1;
      void r;
      return { text: 'parse splits on commas.' };
    });
    const result = await agent.handle('解释 parse');
    expect(seenOpenTurn).toBe(true);
    expect(result).toMatchObject({
      intent: 'code_explain',
      text: 'parse splits on commas.',
      turn: { state: 'completed', assistantText: 'parse splits on commas.' },
    });
    const request = mainRequests()[0]!;
    const system = request.body.messages![0]!.content!;
    expect(system).toContain('回答先给结论');
    expect(system).toContain('COMPACTION-TEXT');
    expect(system).toContain('Memory is not source evidence');
    expect(request.body.messages!.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', '以后回答先给结论。'],
      ['assistant', 'EARLIER-ANSWER: 好的'],
      ['user', '解释 parse'],
    ]);
    expect(request.body.tools!.map((t) => t.function.name)).toEqual([
      'memory_search',
      'memory_read',
      'list_files',
      'read_file',
      'search_text',
    ]);
    await memory.close();
  });

  it('M-1.3: tool calls and their results never reach Memory; only the final text is stored', async () => {
    const { repo, memory, agent } = await setup();
    script(
      'code_explain',
      { text: '', toolCalls: [{ name: 'read_file', arguments: '{"path":"src/parser.ts"}' }] },
      { text: '', toolCalls: [{ name: 'memory_search', arguments: '{"query":"结论"}' }] },
      { text: 'It splits the input.' },
    );
    const result = await agent.handle('what does parse do?');
    expect(result.toolCalls).toBe(2);
    const third = mainRequests()[2]!.body.messages!;
    expect(third.some((m) => m.role === 'tool' && String(m.content).includes('return input.split'))).toBe(true);
    expect(third.some((m) => m.role === 'tool' && String(m.content).includes('回答先给结论'))).toBe(true);
    const dump = readFileSync(dbPathOf(repo)).toString('utf8') + readFileSync(`${dbPathOf(repo)}-wal`).toString('utf8');
    expect(dump).not.toContain('return input.split');
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT assistant_text FROM turns WHERE id = ?').get(result.turn!.id))).toEqual({
      assistant_text: 'It splits the input.',
    });
    await memory.close();
  });

  it('invalid tool arguments are answered to the model as a readable error', async () => {
    const { memory, agent } = await setup();
    script(
      'code_explain',
      {
        text: '',
        toolCalls: [
          { name: 'read_file', arguments: '{"path": 42}' },
          { name: 'nope', arguments: '{}' },
          { name: 'read_file', arguments: '{oops' },
        ],
      },
      { text: 'done' },
    );
    await agent.handle('read it');
    const tools = mainRequests()[1]!
      .body.messages!.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(tools[0]).toMatch(/^Error: invalid arguments for read_file: path: /);
    expect(tools[1]).toMatch(/there is no tool named 'nope'/);
    expect(tools[2]).toMatch(/not valid JSON/);
    await memory.close();
  });

  it('a failed or cancelled request marks the turn failed and keeps the user text', async () => {
    const { repo, memory, agent } = await setup();
    script('general_chat', { status: 500, body: '{"error":{"message":"down"}}' });
    await expect(agent.handle('hello there')).rejects.toThrow();
    const controller = new AbortController();
    script('general_chat', { hang: true });
    setTimeout(() => controller.abort(), 150);
    await expect(agent.handle('will be cancelled', { signal: controller.signal })).rejects.toThrow();
    const rows = withRawDb(dbPathOf(repo), (db) =>
      db.prepare("SELECT user_text, state FROM turns WHERE state <> 'completed' ORDER BY sequence").all(),
    );
    expect(rows).toEqual([
      { user_text: 'hello there', state: 'failed' },
      { user_text: 'will be cancelled', state: 'failed' },
    ]);
    await memory.close();
  });
});

describe('repair profiles (M-1.1, M-4.1)', () => {
  it('a repair request has no Memory context, no Memory tools, no earlier messages, and stores nothing', async () => {
    const { memory, agent } = await setup();
    const before = memory.status().turns;
    script('code_audit', { text: 'No findings: the parser looks correct.' });
    const first = await agent.handle('audit src/parser.ts');
    script('patch_explain', { text: 'There is no pending patch.' });
    await agent.handle('explain the patch');
    expect(first).toMatchObject({ intent: 'code_audit', turn: null });
    for (const request of mainRequests()) {
      const messages = request.body.messages!;
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      const text = JSON.stringify(request.body);
      expect(text).not.toContain('回答先给结论');
      expect(text).not.toContain('COMPACTION-TEXT');
      expect(text).not.toContain('EARLIER-ANSWER');
      expect(text).not.toContain('Project memory');
      expect(request.body.tools!.map((t) => t.function.name)).not.toContain('memory_search');
      expect(request.body.tools!.map((t) => t.function.name)).not.toContain('memory_read');
    }
    expect(mainRequests()[1]!.body.messages![1]!.content).toBe('explain the patch');
    expect(memory.status().turns).toEqual(before);
    await memory.close();
  });

  it('an audit records findings and proposes a pending patch through tools', async () => {
    const { memory, agent, workspace } = await setup();
    script(
      'code_audit',
      {
        text: '',
        toolCalls: [
          {
            name: 'report_finding',
            arguments: JSON.stringify({ path: 'src/parser.ts', line: 2, severity: 'low', message: 'no trimming' }),
          },
          {
            name: 'propose_patch',
            arguments: JSON.stringify({
              summary: 'trim fields',
              edits: [{ path: 'src/parser.ts', search: 'input.split(",")', replace: 'input.split(",").map((s) => s.trim())' }],
            }),
          },
        ],
      },
      { text: 'One finding, patch proposed.' },
    );
    await agent.handle('audit the parser');
    expect(workspace.findings).toHaveLength(1);
    expect(workspace.pendingPatch?.summary).toBe('trim fields');
    await memory.close();
  });
});

describe('intent routing (M-9.8)', () => {
  for (const [name, reply] of [
    ['an HTTP error', { status: 500, body: '{"error":"x"}' }],
    ['prose', { text: 'I think this is an audit.' }],
    ['an unknown intent', { text: '{"intent":"delete_everything"}' }],
    ['two different intents', { text: '{"intent":"code_audit"} or maybe {"intent":"patch_revise"}' }],
  ] as [string, Reply][]) {
    it(`falls back to general_chat (never a repair flow) on ${name}, keeping the reason`, async () => {
      const { memory, agent } = await setup();
      script(reply, { text: 'answered by the general agent' });
      const result = await agent.handle('please audit everything');
      expect(result.intent).toBe('general_chat');
      expect(result.route.fallback?.reason).toMatch(/classifier/);
      expect(result.text).toBe('answered by the general agent');
      expect(result.turn?.state).toBe('completed');
      await memory.close();
    });
  }
});

describe('source tools stay inside the repository', () => {
  it('refuses .., absolute paths, symlinks out and skipped folders', async () => {
    const { repo, memory, agent } = await setup();
    const outside = tempRepo('autopatch-j-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET');
    symlinkSync(join(outside, 'secret.txt'), join(repo, 'link.txt'));
    symlinkSync(outside, join(repo, 'linkdir'));
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'config'), 'GIT-CONFIG');
    const attempts = [
      '../' + outside.split('/').pop() + '/secret.txt',
      join(outside, 'secret.txt'),
      'link.txt',
      'linkdir/secret.txt',
      '.git/config',
      '.autopatch-j/memory.db',
      'src/../../x',
    ];
    script(
      'code_explain',
      { text: '', toolCalls: attempts.map((path) => ({ name: 'read_file', arguments: JSON.stringify({ path }) })) },
      { text: 'done' },
    );
    await agent.handle('read things');
    const outputs = mainRequests()[1]!
      .body.messages!.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(outputs).toHaveLength(attempts.length);
    for (const output of outputs) {
      expect(output).toMatch(/^Error: read_file failed: /);
      expect(output).not.toContain('TOP-SECRET');
      expect(output).not.toContain('GIT-CONFIG');
    }
    await memory.close();
  });
});
