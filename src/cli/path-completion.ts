import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import { SKIPPED_DIRS, resolveInRepo } from '../workspace/repo-paths.js';

/** Completions offered for one `@path` at most. */
const MAX_COMPLETIONS = 200;

/**
 * Tab on an `@path` word: the entries of the folder it names that start with what is typed, read from the
 * working folder (as the request resolves it) and never outside the project or inside the folders the tools
 * skip. A folder completes with `/` (Tab again goes into it), a file with a space.
 */
export function completePath(word: string, repoRoot: string, workingFolder: string): string[] {
  const typed = word.replace(/^@/, '');
  const slash = typed.lastIndexOf('/');
  const folder = slash >= 0 ? typed.slice(0, slash + 1) : '';
  const start = typed.slice(slash + 1);
  let entries;
  try {
    const dir = resolveInRepo(repoRoot, posix.normalize(posix.join(workingFolder || '.', folder || '.')));
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.name.startsWith(start) && !SKIPPED_DIRS.has(e.name) && (start.startsWith('.') || !e.name.startsWith('.')))
    .map((e) => `@${folder}${e.name}${e.isDirectory() ? '/' : ' '}`)
    .sort()
    .slice(0, MAX_COMPLETIONS);
}
