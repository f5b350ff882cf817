import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { untrustedData } from '../shared/data-trust.js';
import { makeDataFolder, readNoFollow, writePrivateFileAtomic } from '../shared/private-files.js';
import { type RecoveryNote, lastCommittedApply } from './apply-journal.js';
import { recoverTransactions } from './apply-recovery.js';
import { type ApplyResult, type UndoResult, applyEdits, planPatch, undoLastApply } from './patch-apply.js';

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

export type { ApplyResult, UndoResult } from './patch-apply.js';
export type { RecoveryNote } from './apply-journal.js';

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
  /** Applies or undos a crash interrupted, completed or rolled back when this workspace opened. */
  readonly recovered: RecoveryNote[];
  /** Why the data folder is not used for the pending patch (it is not the user's own), or null. */
  readonly untrusted: string | null;
  private readonly now: () => number;

  constructor(
    readonly repoRoot: string,
    options: { patchFile?: string; now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    // A data folder that is not the user's own (issue "Safe hands", item 2): its patch is never loaded, nothing
    // is written there, and no journal found in it is replayed; the patch of this session stays in memory.
    this.untrusted = options.patchFile ? (untrustedData(repoRoot, dirname(options.patchFile))?.reason ?? null) : null;
    this.patchFile = this.untrusted === null ? (options.patchFile ?? null) : null;
    this.recovered = this.patchFile ? recoverTransactions(repoRoot, this.now()) : [];
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

  /**
   * Reads the kept patch, never through a link; an unreadable file is ignored (the patch is a proposal,
   * never data). A patch the last apply already applied (a crash came before it was cleared) is dropped.
   */
  private load(): void {
    if (!this.patchFile || !existsSync(this.patchFile)) return;
    try {
      const text = readNoFollow(this.patchFile).toString('utf8');
      const stored = parseStoredPatch(JSON.parse(text));
      this.patch = stored.patch;
      this.nextId = Math.max(stored.nextId, (stored.patch?.id ?? 0) + 1);
    } catch {
      this.patch = null;
    }
    if (this.patch && lastCommittedApply(this.repoRoot)?.patchId === this.patch.id) {
      this.patch = null;
      this.save();
    }
  }

  /** Keeps the patch on disk: a temp file created exclusively (never through a link), renamed over the old one. */
  private save(): void {
    if (!this.patchFile) return;
    if (!this.patch && !existsSync(this.patchFile)) return;
    makeDataFolder(dirname(this.patchFile));
    writePrivateFileAtomic(this.patchFile, `${JSON.stringify({ nextId: this.nextId, patch: this.patch }, null, 2)}\n`);
  }

  /**
   * Applies the pending patch, all files or none, only if every search text still occurs exactly once in its
   * file; otherwise nothing is changed and the problems are listed. The pre-apply bytes are kept for `undo`.
   */
  applyPatch(): ApplyResult {
    if (!this.patch) return { applied: false, problems: ['there is no pending patch'] };
    const result = applyEdits(this.repoRoot, this.patch.edits, { patchId: this.patch.id, summary: this.patch.summary, now: this.now() });
    if (!result.applied) return result;
    this.patch = null;
    this.save();
    this.sourceIndex = null;
    this.requestCache.clear();
    return result;
  }

  /** `/undo`: restores the files the last apply changed, exactly, unless one changed since. */
  undoLastApply(): UndoResult {
    const result = undoLastApply(this.repoRoot, this.now());
    if (result.undone) {
      this.sourceIndex = null;
      this.requestCache.clear();
    }
    return result;
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

/** Checks an edit list against the files as they are now; nothing is written. */
export function planEdits(repoRoot: string, edits: readonly PatchEdit[]): { problems: string[] } {
  return { problems: planPatch(repoRoot, edits).problems };
}

/** One file a patch changes: its text now and after the patch (decoded for display only). */
export interface FileChange {
  path: string;
  before: string;
  after: string;
}

/**
 * Plans a patch for display: each search text must occur exactly once in the file as it is now and again at
 * its turn, and an edit whose replacement contains its own search text must not find that replacement already
 * in place (applying it again would nest it). The edits work on bytes (see byte-edits).
 */
export function planChanges(repoRoot: string, edits: readonly PatchEdit[]): { plan: { problems: string[] }; changes: FileChange[] } {
  const plan = planPatch(repoRoot, edits);
  return {
    plan: { problems: plan.problems },
    changes: plan.files.map((f) => ({ path: f.path, before: f.before.toString('utf8'), after: f.after.toString('utf8') })),
  };
}

/** Renders a patch as readable text for people and for repair prompts. */
export function describePatch(patch: PendingPatch): string {
  const edits = patch.edits
    .map((e, i) => `Edit ${i + 1} — ${e.path}\n<<<<<<< search\n${e.search}\n=======\n${e.replace}\n>>>>>>> replace`)
    .join('\n\n');
  return `Pending patch #${patch.id}${patch.revisions > 0 ? ` (revision ${patch.revisions})` : ''}: ${patch.summary}\n\n${edits}`;
}
