import { join } from 'node:path';
import { Agent } from '../agent/agent.js';
import { ScriptedLlm } from '../llm/scripted-llm.js';
import { Connection } from '../memory/connection.js';
import { MemoryManager } from '../memory/manager.js';
import { ReviewWorkspace } from '../workspace/review-workspace.js';

/**
 * M-13.3 provenance invariants, straight from the database: every stored source quote is verbatim in
 * the cited turn and role; every active preference/decision has a verified user quote; no active item
 * rests on a source overlapping the evidence of a forgotten item.
 */
export function auditProvenance(dir: string): { illegal: number; active: number; complete: number; forgottenRebuilt: number } {
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'), { readonly: true });
  try {
    const illegal = (conn.db
      .prepare(
        `SELECT count(*) AS n FROM candidate_sources s LEFT JOIN turns t ON t.id = s.turn_id
          WHERE t.id IS NULL
             OR instr(CASE s.role WHEN 'user' THEN t.user_text ELSE coalesce(t.assistant_text, '') END, s.quote) = 0
             OR substr(CASE s.role WHEN 'user' THEN t.user_text ELSE t.assistant_text END, s.quote_start + 1, length(s.quote)) <> s.quote`,
      )
      .get() as { n: number }).n;
    const active = (conn.db
      .prepare("SELECT count(*) AS n FROM memory_items WHERE status = 'active' AND kind IN ('user_preference', 'project_decision')")
      .get() as { n: number }).n;
    const complete = (conn.db
      .prepare(
        `SELECT count(*) AS n FROM memory_items i
          WHERE i.status = 'active' AND i.kind IN ('user_preference', 'project_decision')
            AND EXISTS (SELECT 1 FROM memory_item_candidates mic JOIN candidate_sources s ON s.candidate_id = mic.candidate_id
                          JOIN turns t ON t.id = s.turn_id
                         WHERE mic.item_id = i.id AND s.role = 'user' AND instr(t.user_text, s.quote) > 0)`,
      )
      .get() as { n: number }).n;
    const forgottenRebuilt = (conn.db
      .prepare(
        `SELECT count(DISTINCT i.id) AS n FROM memory_items i
           JOIN memory_item_candidates mic ON mic.item_id = i.id
           JOIN candidate_sources s ON s.candidate_id = mic.candidate_id
          WHERE i.status = 'active' AND EXISTS (
            SELECT 1 FROM memory_items f
              JOIN memory_item_candidates fm ON fm.item_id = f.id
              JOIN candidate_sources fs ON fs.candidate_id = fm.candidate_id
             WHERE f.status = 'forgotten' AND f.is_current = 1 AND i.created_at >= f.updated_at
               AND fs.turn_id = s.turn_id AND fs.role = s.role
               AND fs.quote_start < s.quote_start + length(s.quote) AND s.quote_start < fs.quote_start + length(fs.quote))`,
      )
      .get() as { n: number }).n;
    return { illegal, active, complete, forgottenRebuilt };
  } finally {
    conn.close();
  }
}

/**
 * M-1.1 / M-4.1 probe: runs each repair flow in the case's repository with a recording model and counts
 * requests that carry anything of Memory (an item title, the compaction, the routing note, a Memory tool)
 * or any message besides the repair's own system prompt and user input.
 */
export async function repairLeaks(dir: string): Promise<number> {
  const memory = MemoryManager.open({ repoRoot: dir });
  const conn = Connection.open(join(dir, '.autopatch-j', 'memory.db'), { readonly: true });
  const secrets = [
    ...(conn.db.prepare('SELECT title FROM memory_items').all() as { title: string }[]).map((r) => r.title),
    ...(conn.db.prepare("SELECT compaction FROM threads WHERE compaction <> ''").all() as { compaction: string }[]).map((r) => r.compaction),
    ...(conn.db.prepare('SELECT user_text FROM turns').all() as { user_text: string }[]).map((r) => r.user_text),
    'Project memory',
  ].filter((t) => t.length >= 4);
  conn.close();
  // A 'react' answer too, so a flow that wrongly runs as ordinary is measured, not crashed.
  const llm = new ScriptedLlm().always('repair', { content: 'repair answer' }).always('react', { content: 'ordinary answer' });
  const agent = new Agent({ llm, memory, repoRoot: dir, workspace: new ReviewWorkspace(dir) });
  let leaks = 0;
  try {
    for (const intent of ['code_audit', 'patch_explain', 'patch_revise'] as const) {
      await agent.serve({ intent, fallback: null }, `repair probe for ${intent}`);
    }
    for (const request of llm.requests) {
      const text = JSON.stringify(request);
      const tools = (request.tools ?? []).map((t) => t.name);
      if (request.purpose !== 'repair') leaks += 1;
      if (request.messages.length !== 2 || request.messages[0]!.role !== 'system' || request.messages[1]!.role !== 'user') leaks += 1;
      if (tools.includes('memory_search') || tools.includes('memory_read')) leaks += 1;
      leaks += secrets.filter((secret) => text.includes(JSON.stringify(secret).slice(1, -1))).length;
    }
  } finally {
    await memory.close();
  }
  return leaks;
}

/** Searches every case's item titles in every other case's repository: any hit is a cross-repo leak. */
export function crossRepoLeaks(repos: { id: string; dir: string; titles: string[] }[]): number {
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
    void memory.close();
  }
  return leaks;
}
