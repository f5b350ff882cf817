import { describe, expect, it } from 'vitest';
import { MemoryUsageError, ScriptedLlm } from '../../src/index.js';
import { readRememberAct } from '../../src/memory/remember-command.js';
import { openMemory } from '../helpers/memory.js';
import { consolidateWith, extractWith, type ExtractionTurn } from '../helpers/scripted.js';
import { ManualClock, dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

/** What a model does with a remember turn: one candidate of the declared kind quoting the remembered words. */
function rememberCandidates(turn: ExtractionTurn): object[] {
  const act = readRememberAct(turn.user);
  if (!act) return [];
  return [
    {
      kind: act.kind,
      title: act.text.slice(0, 60),
      content: act.text,
      aliases: [],
      sources: [{ turn_id: turn.turn_id, role: 'user', quote: act.text }],
    },
  ];
}

function setup(options: { llm?: boolean } = {}) {
  const repo = tempRepo();
  const clock = new ManualClock();
  const llm = new ScriptedLlm()
    .always('memory_extraction', extractWith(rememberCandidates))
    .always('memory_consolidation', consolidateWith());
  const memory = openMemory({ repoRoot: repo, now: clock.now, ...(options.llm === false ? {} : { llm }) });
  return { repo, clock, llm, memory };
}

describe('M-5.7 remember(): the user says "remember this"', () => {
  it('a sentence with no marker word becomes a preference at once; the turn is what was typed, answered by the program', async () => {
    const { repo, llm, memory } = setup();
    const result = await memory.remember({ text: 'review 意见用中文写', typed: '/remember review 意见用中文写' });
    expect(result).toMatchObject({ outcome: 'remembered', kind: 'user_preference', reason: null });
    expect(result.memory).toMatchObject({ kind: 'user_preference', title: 'review 意见用中文写' });
    expect(memory.list().map((i) => i.id)).toEqual([result.memory!.id]);
    expect(memory.show(result.memory!.id).sources.map((s) => s.quote)).toEqual(['review 意见用中文写']);
    const turns = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT id, user_text, assistant_text, state, intent FROM turns').all());
    expect(turns).toEqual([
      {
        id: result.turnId,
        user_text: '/remember review 意见用中文写',
        assistant_text: 'Asked Memory to remember this as a preference.',
        state: 'completed',
        intent: 'general_chat',
      },
    ]);
    // No main model call: only the two Memory stages ran.
    expect(llm.requests.map((r) => r.purpose)).toEqual(['memory_extraction', 'memory_consolidation']);
  });

  it('--decision makes a project decision; without `typed` the canonical command is stored', async () => {
    const { repo, memory } = setup();
    const result = await memory.remember({ text: 'CI 用 pnpm', kind: 'project_decision' });
    expect(result).toMatchObject({ outcome: 'remembered', memory: { kind: 'project_decision' } });
    const text = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text FROM turns').pluck().get());
    expect(text).toBe('/remember --decision CI 用 pnpm');
  });

  it('still never makes a third party into the user', async () => {
    const { memory } = setup();
    const result = await memory.remember({ text: '同事说以后都用 tabs' });
    expect(result).toMatchObject({ outcome: 'refused', memory: null, reason: 'third_party' });
    expect(memory.list()).toEqual([]);
  });

  it('the same words without the command are not remembered: the act is the command', async () => {
    const { llm, memory } = setup();
    llm.always(
      'memory_extraction',
      extractWith((t) => [
        {
          kind: 'user_preference',
          title: t.user,
          content: t.user,
          aliases: [],
          sources: [{ turn_id: t.turn_id, role: 'user', quote: t.user }],
        },
      ]),
    );
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: 'review 意见用中文写' }), 'ok');
    await memory.processDue({ force: true });
    expect(memory.list()).toEqual([]);
    // A bare imperative with no scope is weak evidence: held for the user, not a memory (M-5.7).
    expect(memory.refused()).toEqual([]);
    expect(memory.suggestions().map((r) => r.reason)).toEqual(['weak_evidence']);
  });

  it('without a model the turn waits in the queue and says so', async () => {
    const { memory } = setup({ llm: false });
    const result = await memory.remember({ text: 'always answer in English' });
    expect(result).toMatchObject({ outcome: 'queued', memory: null, reason: 'no model is configured' });
    expect(memory.openJobs().pending).toBe(1);
  });

  it('an empty or oversized text is a usage error and writes nothing', async () => {
    const { repo, memory } = setup();
    await expect(memory.remember({ text: '   ' })).rejects.toBeInstanceOf(MemoryUsageError);
    await expect(memory.remember({ text: '长'.repeat(2001) })).rejects.toBeInstanceOf(MemoryUsageError);
    await expect(memory.remember({ text: 'x', typed: '/remember y' })).rejects.toBeInstanceOf(MemoryUsageError);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) FROM turns').pluck().get())).toBe(0);
  });
});

describe('M-11.2 changes(): what the background Memory did', () => {
  it('reports created, revised and superseded items with the user quote, oldest first, since a time', async () => {
    const { clock, llm, memory } = setup();
    const start = clock.now();
    const first = await memory.remember({ text: '用 pnpm 管理依赖', kind: 'project_decision' });
    clock.advance(1_000);
    const changes = memory.changes({ since: start });
    expect(changes).toEqual([
      {
        at: start,
        action: 'created',
        id: first.memory!.id,
        kind: 'project_decision',
        title: '用 pnpm 管理依赖',
        quote: '用 pnpm 管理依赖',
      },
    ]);
    expect(memory.changes({ since: clock.now() })).toEqual([]);

    // A revise of the same item, then a supersede of it.
    const target = first.memory!.id;
    llm.enqueue(
      'memory_consolidation',
      consolidateWith((c) => ({
        operation: 'revise',
        candidate_ids: [c.candidate_id],
        target_id: target,
        title: 'pnpm 管理依赖',
        content: c.content,
        synopsis: '',
        aliases: [],
        keywords: [],
      })),
    );
    const revisedAt = clock.now();
    await memory.remember({ text: '用 pnpm 管理依赖，锁文件要提交', kind: 'project_decision' });
    clock.advance(1_000);
    llm.enqueue(
      'memory_consolidation',
      consolidateWith((c) => ({
        operation: 'supersede',
        candidate_ids: [c.candidate_id],
        target_id: target,
        title: '改为 npm 管理依赖',
        content: c.content,
        synopsis: '',
        aliases: [],
        keywords: [],
      })),
    );
    const supersededAt = clock.now();
    const replaced = await memory.remember({ text: '改为 npm 管理依赖，不再使用 pnpm', kind: 'project_decision' });
    const later = memory.changes({ since: revisedAt });
    expect(later.map((c) => [c.action, c.at])).toEqual([['superseded', supersededAt]]);
    expect(later[0]).toMatchObject({
      id: replaced.memory!.id,
      title: '改为 npm 管理依赖',
      quote: '改为 npm 管理依赖，不再使用 pnpm',
      replaced: { id: target, title: 'pnpm 管理依赖' },
    });
  });

  it('a revision is reported as revised, and nothing is reported for a healthy empty Memory', async () => {
    const { clock, llm, memory } = setup();
    expect(memory.changes({ since: 0 })).toEqual([]);
    const first = await memory.remember({ text: 'answers lead with the conclusion' });
    clock.advance(10);
    llm.enqueue(
      'memory_consolidation',
      consolidateWith((c) => ({
        operation: 'revise',
        candidate_ids: [c.candidate_id],
        target_id: first.memory!.id,
        title: 'answers lead with the conclusion, then the details',
        content: c.content,
        synopsis: '',
        aliases: [],
        keywords: [],
      })),
    );
    const since = clock.now();
    await memory.remember({ text: 'answers lead with the conclusion, then the details' });
    expect(memory.changes({ since })).toMatchObject([
      { action: 'revised', id: first.memory!.id, quote: 'answers lead with the conclusion, then the details' },
    ]);
  });
});
