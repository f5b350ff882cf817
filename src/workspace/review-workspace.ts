import { readFileSync, writeFileSync } from 'node:fs';
import { resolveInRepo } from './repo-paths.js';

/** One search/replace edit of a pending patch. */
export interface PatchEdit {
  path: string;
  search: string;
  replace: string;
}

export interface PendingPatch {
  id: number;
  summary: string;
  edits: PatchEdit[];
  revisions: number;
}

/** A finding of a code audit: the "scan results" that /reset clears. */
export interface Finding {
  path: string;
  line: number | null;
  severity: 'info' | 'low' | 'medium' | 'high';
  message: string;
}

export type ApplyResult =
  | { applied: true; files: string[] }
  | { applied: false; problems: string[] };

/**
 * The review workspace of repair flows: the pending patch, audit findings and small caches. It lives in
 * the process only; Memory never sees it (M-1.3).
 */
export class ReviewWorkspace {
  private patch: PendingPatch | null = null;
  private nextId = 1;
  findings: Finding[] = [];
  /** The repo's file list, cached between tool calls of one session. */
  sourceIndex: string[] | null = null;
  /** Small per-session caches of tool results (file reads). */
  readonly requestCache = new Map<string, string>();

  constructor(readonly repoRoot: string) {}

  get pendingPatch(): PendingPatch | null {
    return this.patch;
  }

  proposePatch(summary: string, edits: PatchEdit[]): PendingPatch {
    this.patch = { id: this.nextId++, summary, edits, revisions: 0 };
    return this.patch;
  }

  revisePatch(summary: string | undefined, edits: PatchEdit[]): PendingPatch {
    if (!this.patch) throw new Error('there is no pending patch to revise');
    this.patch = { ...this.patch, summary: summary ?? this.patch.summary, edits, revisions: this.patch.revisions + 1 };
    return this.patch;
  }

  /**
   * Applies the pending patch only if every search text still occurs exactly once in its file; otherwise
   * nothing is changed and the problems are listed.
   */
  applyPatch(): ApplyResult {
    if (!this.patch) return { applied: false, problems: ['there is no pending patch'] };
    const plan = planEdits(this.repoRoot, this.patch.edits);
    if (plan.problems.length > 0) return { applied: false, problems: plan.problems };
    for (const [file, text] of plan.files) writeFileSync(file, text);
    this.patch = null;
    this.sourceIndex = null;
    this.requestCache.clear();
    return { applied: true, files: [...plan.files.keys()] };
  }

  /** Drops the pending patch (/discard, /new). */
  discardPatch(): boolean {
    const had = this.patch !== null;
    this.patch = null;
    return had;
  }

  /** /reset: the review workspace, audit results, source index and request caches. */
  reset(): { patchDiscarded: boolean; findingsCleared: number } {
    const result = { patchDiscarded: this.discardPatch(), findingsCleared: this.findings.length };
    this.findings = [];
    this.sourceIndex = null;
    this.requestCache.clear();
    return result;
  }
}

/**
 * Works out the new text of every file an edit list touches, edits applied in order, each search text
 * required to occur exactly once at its turn. Nothing is written; problems are listed instead.
 */
export function planEdits(repoRoot: string, edits: readonly PatchEdit[]): { files: Map<string, string>; problems: string[] } {
  const problems: string[] = [];
  const files = new Map<string, string>();
  for (const edit of edits) {
    let file: string;
    try {
      file = resolveInRepo(repoRoot, edit.path);
    } catch (error) {
      problems.push(`${edit.path}: ${(error as Error).message}`);
      continue;
    }
    let text: string;
    try {
      text = files.get(file) ?? readFileSync(file, 'utf8');
    } catch {
      problems.push(`${edit.path}: cannot read the file`);
      continue;
    }
    const first = text.indexOf(edit.search);
    if (edit.search.length === 0 || first < 0) {
      problems.push(`${edit.path}: the search text no longer matches`);
      continue;
    }
    if (text.indexOf(edit.search, first + 1) >= 0) {
      problems.push(`${edit.path}: the search text matches more than once`);
      continue;
    }
    files.set(file, text.slice(0, first) + edit.replace + text.slice(first + edit.search.length));
  }
  return { files, problems };
}

/** Renders a patch as readable text for people and for repair prompts. */
export function describePatch(patch: PendingPatch): string {
  const edits = patch.edits
    .map((e, i) => `Edit ${i + 1} — ${e.path}\n<<<<<<< search\n${e.search}\n=======\n${e.replace}\n>>>>>>> replace`)
    .join('\n\n');
  return `Pending patch #${patch.id}${patch.revisions > 0 ? ` (revision ${patch.revisions})` : ''}: ${patch.summary}\n\n${edits}`;
}
