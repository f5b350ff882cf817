import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DATA_DIR_NAME } from '../memory/paths.js';

/** Folders source tools never enter. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', DATA_DIR_NAME]);

/** A path a tool may not use, with a reason the model can read. */
export class PathRefusedError extends Error {
  override readonly name = 'PathRefusedError';
}

/**
 * Resolves a repo-relative path for a tool, refusing absolute paths, `..` escapes, symlinks that lead
 * outside the repo, and the skipped folders. Returns the absolute path.
 */
export function resolveInRepo(repoRoot: string, path: string): string {
  if (path.includes('\0')) throw new PathRefusedError('path contains a NUL byte');
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path))
    throw new PathRefusedError(`absolute paths are not allowed (${path}); use a path relative to the repository`);
  const root = realpathSync(repoRoot);
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new PathRefusedError(`path ${path} leaves the repository`);
  if (rel.split(sep).some((part) => SKIPPED_DIRS.has(part)))
    throw new PathRefusedError(`path ${path} is inside a folder the tools skip (${[...SKIPPED_DIRS].join(', ')})`);
  let real = target;
  try {
    real = realpathSync(target);
  } catch {
    // Not there (yet): the lexical check above already holds.
    return target;
  }
  const realRel = relative(root, real);
  if (realRel.startsWith('..') || isAbsolute(realRel))
    throw new PathRefusedError(`path ${path} is a link that leads outside the repository`);
  if (realRel.split(sep).some((part) => SKIPPED_DIRS.has(part))) throw new PathRefusedError(`path ${path} leads into a skipped folder`);
  return real;
}
