import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The project a command works on: the git top level above `start` (a `.git` folder or file), else `start`
 * itself. Running from `src/` therefore uses the same Memory as running from the top.
 */
export function projectRoot(start: string): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(start);
    dir = parent;
  }
}
