import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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

export type ApplyResult = { applied: true; files: string[] } | { applied: false; problems: string[] };

/** Reads a kept patch file; anything else than the shape written by `save` is refused. */
function parseStoredPatch(value: unknown): { nextId: number; patch: PendingPatch | null } {
  const v = value as { nextId?: unknown; patch?: unknown } | null;
  const isCount = (n: unknown, min: number): n is number => Number.isInteger(n) && (n as number) >= min;
  if (v === null || typeof v !== 'object' || !isCount(v.nextId, 1)) throw new Error('not a pending patch file');
  if (v.patch === null) return { nextId: v.nextId, patch: null };
  const p = v.patch as Partial<PendingPatch> | undefined;
  const editsOk =
    Array.isArray(p?.edits) &&
    p.edits.every(
      (e) =>
        e !== null && typeof e === 'object' && typeof e.path === 'string' && typeof e.search === 'string' && typeof e.replace === 'string',
    );
  if (!p || !isCount(p.id, 1) || typeof p.summary !== 'string' || !isCount(p.revisions, 0) || !editsOk)
    throw new Error('not a pending patch file');
  return {
    nextId: v.nextId,
    patch: {
      id: p.id,
      summary: p.summary,
      edits: p.edits!.map((e) => ({ path: e.path, search: e.search, replace: e.replace })),
      revisions: p.revisions,
    },
  };
}

/**
 * The review workspace of repair flows: the pending patch, audit findings and small caches. Memory never
 * sees it (M-1.3). With `patchFile`, the pending patch is kept on disk so that `autopatch-j ask` can
 * propose it and a later session or `autopatch-j apply` can apply it; everything else lives in the process.
 */
export class ReviewWorkspace {
  private patch: PendingPatch | null = null;
  private nextId = 1;
  findings: Finding[] = [];
  /** The repo's file list, cached between tool calls of one session. */
  sourceIndex: string[] | null = null;
  /** Small per-session caches of tool results (file reads). */
  readonly requestCache = new Map<string, string>();
  private readonly patchFile: string | null;

  constructor(
    readonly repoRoot: string,
    options: { patchFile?: string } = {},
  ) {
    this.patchFile = options.patchFile ?? null;
    this.load();
  }

  get pendingPatch(): PendingPatch | null {
    return this.patch;
  }

  proposePatch(summary: string, edits: PatchEdit[]): PendingPatch {
    this.patch = { id: this.nextId++, summary, edits, revisions: 0 };
    this.save();
    return this.patch;
  }

  revisePatch(summary: string | undefined, edits: PatchEdit[]): PendingPatch {
    if (!this.patch) throw new Error('there is no pending patch to revise');
    this.patch = { ...this.patch, summary: summary ?? this.patch.summary, edits, revisions: this.patch.revisions + 1 };
    this.save();
    return this.patch;
  }

  /** Reads the kept patch; an unreadable file is ignored (the patch is a proposal, never data). */
  private load(): void {
    if (!this.patchFile || !existsSync(this.patchFile)) return;
    try {
      const stored = parseStoredPatch(JSON.parse(readFileSync(this.patchFile, 'utf8')));
      this.patch = stored.patch;
      this.nextId = Math.max(stored.nextId, (stored.patch?.id ?? 0) + 1);
    } catch {
      this.patch = null;
    }
  }

  private save(): void {
    if (!this.patchFile) return;
    if (!this.patch && !existsSync(this.patchFile)) return;
    mkdirSync(dirname(this.patchFile), { recursive: true });
    const temp = `${this.patchFile}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ nextId: this.nextId, patch: this.patch }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.patchFile);
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
    this.save();
    this.sourceIndex = null;
    this.requestCache.clear();
    return { applied: true, files: [...plan.files.keys()] };
  }

  /** Drops the pending patch (/discard, /new). */
  discardPatch(): boolean {
    const had = this.patch !== null;
    this.patch = null;
    if (had) this.save();
    return had;
  }

  /** /reset: audit results, source index and request caches, and the pending patch unless `keepPatch` (/reset without --patch). */
  reset(options: { keepPatch?: boolean } = {}): { patchDiscarded: boolean; findingsCleared: number } {
    const result = { patchDiscarded: options.keepPatch ? false : this.discardPatch(), findingsCleared: this.findings.length };
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
  return planChanges(repoRoot, edits).plan;
}

/** One file a patch changes: its text now and after the patch. */
export interface FileChange {
  path: string;
  before: string;
  after: string;
}

/**
 * Plans a patch: each search text must occur exactly once in the file as it is now and again at its turn
 * (so an earlier edit cannot create or hide the match), and an edit whose replacement contains its own
 * search text must not find that replacement already in place (applying it again would nest it).
 */
export function planChanges(
  repoRoot: string,
  edits: readonly PatchEdit[],
): { plan: { files: Map<string, string>; problems: string[] }; changes: FileChange[] } {
  const problems: string[] = [];
  const files = new Map<string, string>();
  const originals = new Map<string, { path: string; text: string }>();
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
      if (!originals.has(file)) originals.set(file, { path: edit.path, text: readFileSync(file, 'utf8') });
      text = files.get(file) ?? originals.get(file)!.text;
    } catch {
      problems.push(`${edit.path}: cannot read the file`);
      continue;
    }
    const original = originals.get(file)!.text;
    if (edit.search.length === 0 || countOccurrences(original, edit.search) === 0 || text.indexOf(edit.search) < 0) {
      problems.push(`${edit.path}: the search text no longer matches`);
      continue;
    }
    if (countOccurrences(original, edit.search) > 1 || countOccurrences(text, edit.search) > 1) {
      problems.push(`${edit.path}: the search text matches more than once`);
      continue;
    }
    if (edit.replace.includes(edit.search) && edit.replace !== edit.search && original.includes(edit.replace)) {
      problems.push(`${edit.path}: the replacement is already there (the patch looks applied)`);
      continue;
    }
    const first = text.indexOf(edit.search);
    files.set(file, text.slice(0, first) + edit.replace + text.slice(first + edit.search.length));
  }
  const changes = [...files.entries()].map(([file, after]) => ({
    path: originals.get(file)!.path,
    before: originals.get(file)!.text,
    after,
  }));
  return { plan: { files, problems }, changes };
}

/** Occurrences (overlapping ones too) of `needle` in `text`. */
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** Renders a patch as readable text for people and for repair prompts. */
export function describePatch(patch: PendingPatch): string {
  const edits = patch.edits
    .map((e, i) => `Edit ${i + 1} — ${e.path}\n<<<<<<< search\n${e.search}\n=======\n${e.replace}\n>>>>>>> replace`)
    .join('\n\n');
  return `Pending patch #${patch.id}${patch.revisions > 0 ? ` (revision ${patch.revisions})` : ''}: ${patch.summary}\n\n${edits}`;
}
