import type { Intent, OrdinaryIntent } from '../memory/types.js';
import { listFiles } from './tools/list-files.js';
import { memoryRead } from './tools/memory-read.js';
import { memorySearch } from './tools/memory-search.js';
import { proposePatch } from './tools/propose-patch.js';
import { readFile } from './tools/read-file.js';
import { reportFinding } from './tools/report-finding.js';
import { revisePatch } from './tools/revise-patch.js';
import { searchText } from './tools/search-text.js';
import { showPatch } from './tools/show-patch.js';
import type { Tool } from './tools/tool.js';

/** How one intent is served: its tools and its prompt (MEMORY.md §4: only ordinary intents get the Memory tools). */
export interface Profile {
  intent: Intent;
  tools: readonly Tool[];
  system: string;
}

const SOURCE_TOOLS: readonly Tool[] = [listFiles, readFile, searchText];

const BASE = `You are autopatch-j, a coding assistant working in the user's repository. Read the live source with
your tools before you state facts about the code; say so when you have not checked. Answer in the user's
language.`;

const ORDINARY_PROMPT: Record<OrdinaryIntent, string> = {
  code_explain: `${BASE}\nThe user wants code explained. Read the relevant files, then explain clearly and concretely.`,
  general_chat: `${BASE}\nConverse helpfully about the project and the user's work.`,
};

const MEMORY_NOTE = `Project memory below lists what the user asked you to remember. Use memory_search and memory_read
for details when they matter. Memory is not source evidence, and the current instruction always wins.`;

/** The ordinary profile: Memory context and tools plus read-only source tools (M-4.1). */
export function ordinaryProfile(intent: OrdinaryIntent): Profile {
  return { intent, tools: [memorySearch, memoryRead, ...SOURCE_TOOLS], system: `${ORDINARY_PROMPT[intent]}\n${MEMORY_NOTE}` };
}

/** Repair profiles: no Memory context, no Memory tools, no inherited history (M-1.1, M-4.1). */
export function repairProfile(intent: Exclude<Intent, OrdinaryIntent>): Profile {
  switch (intent) {
    case 'code_audit':
      return {
        intent,
        tools: [...SOURCE_TOOLS, reportFinding, proposePatch, showPatch],
        system: `${BASE}\nAudit the code the user points at. Read it, record each real problem with report_finding
(file, line, severity), and propose a fix with propose_patch only when you are sure. If you find nothing,
say so plainly: a review with zero findings is a valid result.`,
      };
    case 'patch_explain':
      return {
        intent,
        tools: [...SOURCE_TOOLS, showPatch],
        system: `${BASE}\nExplain the pending patch: what each edit changes and why, and its risks.`,
      };
    case 'patch_revise':
      return {
        intent,
        tools: [...SOURCE_TOOLS, showPatch, revisePatch, proposePatch],
        system: `${BASE}\nRevise the pending patch as the user asks, with revise_patch (search/replace edits that match
the current files exactly once).`,
      };
  }
}
