import { describe, expect, it } from 'vitest';
import { type MemoryManager, MemoryNotFoundError, MemoryProvenanceError, ScriptedLlm } from '../../src/index.js';
import { shortCandidateId } from '../../src/shared/ids.js';
import { openMemory } from '../helpers/memory.js';
import { consolidateWith, extractWith } from '../helpers/scripted.js';
import { itemTableBytes, markKeepable, plantSuggestion } from '../helpers/held.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

/** The extraction proposes one preference per turn quoting `quote(text)` (the whole text by default). */
function setup(options: { llm?: boolean; quote?: (text: string) => string } = {}) {
  const repo = tempRepo();
  const quote = options.quote ?? ((t: string) => t);
  const llm = new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith((t) => [
        {
          kind: 'user_preference',
          title: '先跑 lint 再提交',
          content: '提交前先跑 lint',
          aliases: [],
          sources: [{ turn_id: t.turn_id, role: 'user', quote: quote(t.user) }],
        },
      ]),
    )
    .always('memory_consolidation', consolidateWith());
  const memory = openMemory({ repoRoot: repo, ...(options.llm === false ? {} : { llm }) });
  return { repo, llm, memory };
}

async function say(memory: MemoryManager, text: string): Promise<string> {
  const turn = memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: text }), 'OK');
  await memory.processDue({ force: true });
  return turn.id;
}

const QUESTION = '能不能以后都先跑 lint 再提交？';

function rows(repo: string, sql: string): unknown[] {
  return withRawDb(dbPathOf(repo), (db) => db.prepare(sql).all());
}

describe('M-5.7 keep(): the user keeps a suggestion', () => {
  it('the suggestion becomes a memory — listed, searchable, quoted — recorded as the user turn that kept it', async () => {
    const { repo, llm, memory } = setup();
    const turnId = await say(memory, QUESTION);
    const id = plantSuggestion(repo, turnId, QUESTION);
    // M-11.2: a held suggestion is a change to tell, until the user decides on it.
    expect(memory.changes({ since: 0 })).toMatchObject([{ action: 'suggested', id, kind: 'user_preference', quote: QUESTION }]);
    expect(memory.status().suggestions).toBe(1);
    const before = llm.requests.length;
    const result = await memory.keep(id);
    expect(result).toMatchObject({ candidateId: id, kind: 'user_preference', outcome: 'remembered', alreadyKept: false, reason: null });
    const item = result.memory!;
    expect(memory.list().map((i) => i.id)).toEqual([item.id]);
    const handle = memory.bindActiveThread();
    expect(memory.search(handle, 'lint').map((h) => h.id)).toEqual([item.id]);
    // The memory's source is the user's original words, in the turn they were said.
    expect(memory.show(item.id).sources.map((s) => [s.turnId, s.quote])).toEqual([[turnId, QUESTION]]);
    // Only the consolidation ran; the act is the user's turn, answered by the program.
    expect(llm.requests.slice(before).map((r) => r.purpose)).toEqual(['memory_consolidation']);
    expect(rows(repo, 'SELECT user_text, assistant_text, state FROM turns ORDER BY sequence')).toEqual([
      { user_text: QUESTION, assistant_text: 'OK', state: 'completed' },
      { user_text: `/memory keep ${id}`, assistant_text: 'Asked Memory to keep this as a preference.', state: 'completed' },
    ]);
    // v2 catalog exact: one extraction job per turn, one consolidation job per extraction batch.
    expect(
      rows(
        repo,
        'SELECT kind, status FROM memory_jobs WHERE turn_id = ? OR parent_job_id IN (SELECT id FROM memory_jobs WHERE turn_id = ?)'.replaceAll(
          '?',
          `'${result.turnId}'`,
        ),
      ),
    ).toEqual([
      { kind: 'extraction', status: 'succeeded' },
      { kind: 'consolidation', status: 'succeeded' },
    ]);
    expect(memory.changes({ since: 0 })).toMatchObject([{ action: 'created', id: item.id, quote: QUESTION }]);
    expect(memory.status().suggestions).toBe(0);
  });

  it('keeping twice is idempotent: the same memory, nothing written', async () => {
    const { repo, memory } = setup();
    const id = plantSuggestion(repo, await say(memory, QUESTION), QUESTION);
    const first = await memory.keep(id);
    const bytes = itemTableBytes(repo);
    const turns = rows(repo, 'SELECT id FROM turns');
    const again = await memory.keep(shortCandidateId(id));
    expect(again).toEqual({ ...first, alreadyKept: true });
    expect(itemTableBytes(repo)).toBe(bytes);
    expect(rows(repo, 'SELECT id FROM turns')).toEqual(turns);
  });

  it('a provenance refusal can never be kept: it throws and the items tables stay byte for byte', async () => {
    // The model cites words the user never wrote: quote_not_found.
    const { repo, memory } = setup({ quote: () => '以后提交前都跑 lint' });
    await say(memory, QUESTION);
    const [refusal] = memory.refused();
    expect(refusal!.reason).toBe('quote_not_found');
    const bytes = itemTableBytes(repo);
    const jobs = rows(repo, 'SELECT id, status, diagnostics FROM memory_jobs ORDER BY id');
    const turns = rows(repo, 'SELECT * FROM turns');
    const error = await memory.keep(refusal!.candidateId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemoryProvenanceError);
    expect(error).toMatchObject({ reason: 'quote_not_found', candidateId: refusal!.candidateId });
    await expect(memory.dismiss(refusal!.candidateId)).rejects.toBeInstanceOf(MemoryProvenanceError);
    expect(itemTableBytes(repo)).toBe(bytes);
    expect(rows(repo, 'SELECT id, status, diagnostics FROM memory_jobs ORDER BY id')).toEqual(jobs);
    expect(rows(repo, 'SELECT * FROM turns')).toEqual(turns);
    expect(memory.refused().map((r) => r.candidateId)).toEqual([refusal!.candidateId]);
  });

  it('a keepable refusal is kept after its quotes are verified again; one whose quote no longer matches is refused', async () => {
    const { repo, memory } = setup();
    // A request for this time only: the gate refuses it as its reading of the words, which the user may overrule.
    const TEMPORARY = '这次先跑 lint 再提交。';
    const turnId = await say(memory, TEMPORARY);
    const [refusal] = memory.refused();
    expect(refusal).toMatchObject({ reason: 'temporary', keepable: true });
    // The stored offset no longer points at the quote: verified again, it is not the user's words there.
    markKeepable(repo, refusal!.candidateId, [{ turnId, role: 'user', quote: TEMPORARY, start: 3 }]);
    const bytes = itemTableBytes(repo);
    await expect(memory.keep(refusal!.candidateId)).rejects.toMatchObject({ name: 'MemoryProvenanceError', reason: 'quote_not_found' });
    expect(itemTableBytes(repo)).toBe(bytes);
    markKeepable(repo, refusal!.candidateId, [{ turnId, role: 'user', quote: TEMPORARY, start: 0 }]);
    const kept = await memory.keep(refusal!.candidateId);
    expect(kept).toMatchObject({ outcome: 'remembered', memory: { title: '先跑 lint 再提交' } });
    expect(memory.show(kept.memory!.id).sources.map((s) => s.quote)).toEqual([TEMPORARY]);
  });

  it('dismiss drops a suggestion; it cannot be kept afterwards; the RAW turn stays', async () => {
    const { repo, memory } = setup();
    const turnId = await say(memory, QUESTION);
    const id = plantSuggestion(repo, turnId, QUESTION);
    await memory.dismiss(shortCandidateId(id));
    await memory.dismiss(id);
    await expect(memory.keep(id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    expect(memory.list()).toEqual([]);
    expect(rows(repo, 'SELECT id FROM turns')).toEqual([{ id: turnId }]);
  });

  it('without a model the kept candidate waits for its consolidation', async () => {
    const { repo, memory } = setup();
    const id = plantSuggestion(repo, await say(memory, QUESTION), QUESTION);
    await memory.close();
    const offline = openMemory({ repoRoot: repo });
    expect(await offline.keep(id)).toMatchObject({ outcome: 'queued', reason: 'no model is configured', memory: null });
    expect(offline.openJobs().pending).toBe(1);
  });

  it('an unknown id is not found', async () => {
    const { memory } = setup();
    await expect(memory.keep('s00000')).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(memory.keep('job-nope#s1')).rejects.toBeInstanceOf(MemoryNotFoundError);
  });
});
