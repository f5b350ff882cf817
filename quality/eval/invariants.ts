// M-13.3 invariants, measured through the public API: the RAW export is the audit trail, read back as data.
import { readFileSync, rmSync } from 'node:fs';
import { type Intent, MemoryManager, ScriptedLlm } from '../../src/index.js';
// The agent and the review workspace are not part of the library API; the repair probe drives them as the CLI does.
import { Agent } from '../../src/agent/agent.js';
import type { RouteDecision } from '../../src/agent/intent-router.js';
import { ReviewWorkspace } from '../../src/workspace/review-workspace.js';

/** The rows of a RAW export the invariants read (a subset of each table's columns). */
export interface ExportedTables {
  turns: { id: string; user_text: string; assistant_text: string | null }[];
  candidate_sources: { candidate_id: string; turn_id: string; role: 'user' | 'assistant'; quote: string; quote_start: number }[];
  memory_items: {
    id: string;
    kind: string;
    status: string;
    title: string;
    is_current: number;
    created_at: number;
    updated_at: number;
  }[];
  memory_item_candidates: { item_id: string; candidate_id: string }[];
  threads: { compaction: string | null }[];
}

/** What `auditProvenance` counts. */
export interface ProvenanceAudit {
  illegal: number;
  active: number;
  complete: number;
  forgottenRebuilt: number;
}

/** One case's repository, with the titles of its active items. */
export interface CaseRepo {
  id: string;
  dir: string;
  titles: string[];
}

/** The tables of a fresh RAW export of the project's Memory (`MemoryManager.export()`), the file removed after. */
export async function exportTables(dir: string): Promise<ExportedTables> {
  const memory = MemoryManager.open({ repoRoot: dir });
  try {
    const { path } = memory.export();
    const snapshot = JSON.parse(readFileSync(path, 'utf8')) as { tables: ExportedTables };
    rmSync(path, { force: true });
    return snapshot.tables;
  } finally {
    await memory.close();
  }
}

const sourceText = (turn: ExportedTables['turns'][number], role: 'user' | 'assistant'): string =>
  role === 'user' ? turn.user_text : (turn.assistant_text ?? '');

/**
 * Every stored quote is verbatim at its recorded offset in the cited turn and role; every active
 * preference/decision has a verified user quote; no active item rests on the evidence of a forgotten item.
 */
export async function auditProvenance(dir: string): Promise<ProvenanceAudit> {
  const t = await exportTables(dir);
  const turns = new Map(t.turns.map((row) => [row.id, row]));
  let illegal = 0;
  for (const s of t.candidate_sources) {
    const turn = turns.get(s.turn_id);
    const text = turn ? sourceText(turn, s.role) : null;
    // quote_start counts code points, as SQLite's substr does.
    if (
      text === null ||
      Array.from(text)
        .slice(s.quote_start, s.quote_start + Array.from(s.quote).length)
        .join('') !== s.quote
    )
      illegal += 1;
  }
  const current = t.memory_items.filter((i) => i.is_current === 1);
  const links = new Map<string, string[]>();
  for (const l of t.memory_item_candidates) (links.get(l.item_id) ?? links.set(l.item_id, []).get(l.item_id)!).push(l.candidate_id);
  const sourcesOf = (itemId: string): ExportedTables['candidate_sources'] =>
    t.candidate_sources.filter((s) => (links.get(itemId) ?? []).includes(s.candidate_id));
  const active = current.filter((i) => i.status === 'active' && (i.kind === 'user_preference' || i.kind === 'project_decision'));
  const complete = active.filter((i) =>
    sourcesOf(i.id).some((s) => s.role === 'user' && (turns.get(s.turn_id)?.user_text ?? '').includes(s.quote)),
  ).length;
  const forgotten = current.filter((i) => i.status === 'forgotten');
  let forgottenRebuilt = 0;
  for (const item of current.filter((i) => i.status === 'active')) {
    const rebuilt = forgotten.some(
      (f) =>
        item.created_at >= f.updated_at &&
        sourcesOf(f.id).some((fs) =>
          sourcesOf(item.id).some(
            (s) =>
              fs.turn_id === s.turn_id &&
              fs.role === s.role &&
              fs.quote_start < s.quote_start + Array.from(s.quote).length &&
              s.quote_start < fs.quote_start + Array.from(fs.quote).length,
          ),
        ),
    );
    if (rebuilt) forgottenRebuilt += 1;
  }
  return { illegal, active: active.length, complete, forgottenRebuilt };
}

/**
 * M-1.1 / M-4.1 probe: runs one repair request per repair intent on the Memory of `dir` and counts what leaked into them: a
 * request not of the repair purpose, inherited history, Memory tools, or any stored Memory text. `routeOf`
 * decides how each request is routed (a broken router is how the probe itself is shown to fail).
 */
export async function repairLeaks(
  dir: string,
  { routeOf = (intent: Intent): RouteDecision => ({ intent, fallback: null }) }: { routeOf?: (intent: Intent) => RouteDecision } = {},
): Promise<number> {
  const t = await exportTables(dir);
  const secrets = [
    ...t.memory_items.map((r) => r.title),
    ...t.threads.map((r) => r.compaction).filter((c): c is string => Boolean(c)),
    ...t.turns.map((r) => r.user_text),
    'Project memory',
  ].filter((s) => s.length >= 4);
  const memory = MemoryManager.open({ repoRoot: dir });
  // A 'react' answer too, so a flow that wrongly runs as ordinary is measured, not crashed.
  const llm = new ScriptedLlm().always('repair', { content: 'repair answer' }).always('react', { content: 'ordinary answer' });
  const agent = new Agent({ llm, memory, repoRoot: dir, workspace: new ReviewWorkspace(dir) });
  let leaks = 0;
  try {
    for (const intent of ['code_audit', 'patch_explain', 'patch_revise'] as const) {
      await agent.serve(routeOf(intent), `repair probe for ${intent}`);
    }
    for (const request of llm.requests) {
      const text = JSON.stringify(request);
      const tools = (request.tools ?? []).map((x) => x.name);
      if (request.purpose !== 'repair') leaks += 1;
      if (request.messages.length !== 2 || request.messages[0]?.role !== 'system' || request.messages[1]?.role !== 'user') leaks += 1;
      if (tools.includes('memory_search') || tools.includes('memory_read')) leaks += 1;
      leaks += secrets.filter((secret) => text.includes(JSON.stringify(secret).slice(1, -1))).length;
    }
  } finally {
    await memory.close();
  }
  return leaks;
}

/** Searches every case's item titles in every other case's repository: any hit is a cross-repo leak. */
export async function crossRepoLeaks(repos: CaseRepo[]): Promise<number> {
  let leaks = 0;
  const probes = repos.filter((r) => r.titles.length > 0).slice(0, 12);
  for (const target of probes) {
    const memory = MemoryManager.open({ repoRoot: target.dir });
    const h = memory.beginTurn({ intent: 'general_chat', userText: '(cross-repo probe)' });
    for (const source of probes) {
      if (source === target) continue;
      for (const title of source.titles) {
        if (target.titles.includes(title)) continue;
        leaks += memory.search(h, title).filter((hit) => hit.title === title).length;
      }
    }
    memory.failTurn(h);
    await memory.close();
  }
  return leaks;
}
