import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DATA_DIR_NAME } from '../memory/paths.js';

/**
 * The project a command works on: the git top level above `start` (a `.git` folder or file); outside git,
 * the nearest folder above that already holds an `.autopatch-j` data folder; else `start` itself. Running
 * from `src/` therefore uses the same Memory as running from the top, never a second, empty one.
 */
export function projectRoot(start: string): string {
  const from = resolve(start);
  let withData: string | null = null;
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (withData === null && existsSync(join(dir, DATA_DIR_NAME))) withData = dir;
    if (dirname(dir) === dir) return withData ?? from;
  }
}

/**
 * The project of a command, the same for the CLI and the MCP server: `--repo` as given, else `projectRoot`
 * of the current folder. Returns the folder, or the problem when it is not an existing folder.
 */
export function resolveProject(repo: string | undefined, cwd: string = process.cwd()): { root: string; problem: string | null } {
  const root = repo !== undefined ? resolve(cwd, repo) : projectRoot(cwd);
  const found = statSync(root, { throwIfNoEntry: false });
  return { root, problem: found?.isDirectory() ? null : `--repo ${root} is not a folder` };
}
