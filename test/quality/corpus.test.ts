import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCorpus, runCorpus } from '../../quality/eval/corpus.js';
import { auditProvenance, repairLeaks } from '../../quality/eval/invariants.js';

const corpus = loadCorpus(fileURLToPath(new URL('../../quality/corpus.v1.json', import.meta.url)));

describe('M-13.2 quality corpus', () => {
  it('covers every category in Chinese and English', () => {
    const categories = new Set(corpus.cases.map((c) => c.category));
    expect([...categories].sort()).toEqual([...corpus.categories].sort());
    const text = JSON.stringify(corpus.cases);
    expect(/[\u4e00-\u9fff]/.test(text) && /[a-z]{4}/i.test(text)).toBe(true);
  });
});

describe('M-13.3 invariants on the quality corpus', () => {
  let report: Awaited<ReturnType<typeof runCorpus>>;
  it('runs every case without a failure', async () => {
    report = await runCorpus(corpus);
    const failures = report.cases.flatMap((c) => c.failures.map((f) => `${c.id}: ${f}`));
    expect(failures).toEqual([]);
  });

  it('illegal provenance = 0, repair leakage = 0, cross-repo and cross-thread leakage = 0, forgotten rebuilt = 0', () => {
    expect(report.invariants).toMatchObject({
      illegalProvenance: 0,
      repairLeakage: 0,
      crossRepoLeakage: 0,
      crossThreadLeakage: 0,
      forgottenRebuilt: 0,
    });
  });

  it('provenance completeness of active preferences/decisions = 100 %', () => {
    expect(report.invariants.activePreferencesAndDecisions).toBeGreaterThan(5);
    expect(report.invariants.provenanceCompleteness).toBe(1);
  });

  it('every candidate decision agrees with its corpus label', () => {
    expect(report.labels.candidates).toBeGreaterThan(30);
    expect(report.labels).toMatchObject({ falseAccepts: 0, falseRejects: 0, wrongReason: 0 });
    expect(report.labels.agreed).toBe(report.labels.candidates);
  });
});

describe('the invariant probes can fail', () => {
  it('the repair probe counts a leak when a repair request carries Memory', async () => {
    const { MemoryManager } = await import('../../src/index.js');
    const { tempRepo } = await import('../helpers/temp-repo.js');
    const repo = tempRepo();
    const memory = MemoryManager.open({ repoRoot: repo });
    const h = memory.beginTurn({ intent: 'general_chat', userText: 'LEAKY USER TEXT 以后先给结论' });
    memory.completeTurn(h, 'ok');
    await memory.close();
    expect(await repairLeaks(repo)).toBe(0);
    // A broken router that serves repair requests as ordinary ones (with Memory) is caught.
    expect(await repairLeaks(repo, { routeOf: () => ({ intent: 'general_chat', fallback: null }) })).toBeGreaterThan(2);
  });

  it('the provenance audit counts a quote that is not at its recorded place', async () => {
    const { MemoryManager, ScriptedLlm } = await import('../../src/index.js');
    const { tempRepo } = await import('../helpers/temp-repo.js');
    const { withRawDb, dbPathOf } = await import('../helpers/temp-repo.js');
    const repo = tempRepo();
    const llm = new ScriptedLlm()
      .always('memory_extraction', (request) => {
        const turn = JSON.parse(request.messages[1]!.content).turns[0];
        return {
          content: JSON.stringify({
            thread_compaction: '',
            candidates: [
              {
                kind: 'user_preference',
                title: '回答先给结论',
                content: '回答先给结论',
                aliases: [],
                sources: [{ turn_id: turn.turn_id, role: 'user', quote: '以后回答先给结论。' }],
              },
            ],
          }),
        };
      })
      .always('memory_consolidation', (request) => {
        const c = JSON.parse(request.messages[1]!.content).candidates[0];
        return {
          content: JSON.stringify({
            operations: [
              {
                operation: 'create',
                candidate_ids: [c.candidate_id],
                target_id: null,
                title: c.title,
                content: c.title,
                synopsis: '',
                aliases: [],
                keywords: [],
              },
            ],
          }),
        };
      });
    const memory = MemoryManager.open({ repoRoot: repo, llm });
    memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: '以后回答先给结论。' }), 'ok');
    await memory.processDue({ force: true });
    await memory.close();
    expect(await auditProvenance(repo)).toMatchObject({ illegal: 0, active: 1, complete: 1 });
    withRawDb(dbPathOf(repo), (db) => db.prepare('UPDATE candidate_sources SET quote_start = quote_start + 1').run());
    expect((await auditProvenance(repo)).illegal).toBe(1);
  });
});
