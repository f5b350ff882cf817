// M-13.4: the optional live evaluation. The corpus turns go through the configured real model (never in
// default CI: the caller checks AUTOPATCH_RUN_MEMORY_LIVE_EVAL=1). The model's candidates are not scripted,
// so only the invariants are judged, not the labels.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryManager } from '../../src/index.js';
// Configuration and the provider are what the CLI uses; they are not part of the library API.
import { type AppConfig, loadConfig } from '../../src/config/config.js';
import { OpenAiCompatibleProvider } from '../../src/llm/openai-provider.js';
import type { Corpus } from './corpus.js';
import { auditProvenance } from './invariants.js';

/** The figures of a live run: only the invariants are judged, the model's candidates are not labelled. */
export interface LiveReport {
  cases: number;
  modelFailures: number;
  kept: number;
  refused: number;
  invariants: { illegalProvenance: number; provenanceCompleteness: number; activePreferencesAndDecisions: number };
}

export async function runCorpusLive(corpus: Corpus, config: AppConfig = loadConfig()): Promise<LiveReport> {
  if (!config.llm) throw new Error('the live evaluation needs a configured model (AUTOPATCH_LLM_API_KEY / AUTOPATCH_LLM_BASE_URL)');
  const llm = new OpenAiCompatibleProvider(config.llm);
  const report: LiveReport = {
    cases: 0,
    modelFailures: 0,
    kept: 0,
    refused: 0,
    invariants: { illegalProvenance: 0, provenanceCompleteness: 1, activePreferencesAndDecisions: 0 },
  };
  let complete = 0;
  for (const c of corpus.cases) {
    const dir = mkdtempSync(join(tmpdir(), `autopatch-j-live-${c.id}-`));
    const memory = MemoryManager.open({ repoRoot: dir, llm });
    try {
      for (const step of c.steps) {
        if ('say' in step) {
          const h = memory.beginTurn({ intent: 'general_chat', userText: step.say });
          memory.completeTurn(h, step.answer);
        } else if ('newThread' in step) {
          await memory.newThread();
        }
      }
      const result = await memory.processDue({ force: true });
      report.modelFailures += result.outcomes.filter((o) => o.outcome === 'retry').length;
      const status = memory.status();
      report.refused += status.filteredCandidates.total;
      report.kept += status.items.user_preference + status.items.project_decision + status.items.discussion_context;
    } finally {
      await memory.close();
    }
    const audit = await auditProvenance(dir);
    report.invariants.illegalProvenance += audit.illegal;
    report.invariants.activePreferencesAndDecisions += audit.active;
    complete += audit.complete;
    report.cases += 1;
    rmSync(dir, { recursive: true, force: true });
  }
  const active = report.invariants.activePreferencesAndDecisions;
  report.invariants.provenanceCompleteness = active === 0 ? 1 : complete / active;
  return report;
}
