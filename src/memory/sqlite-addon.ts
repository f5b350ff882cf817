import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let addon: string | null | undefined;

/**
 * better-sqlite3's native addon by path, for every `new Database`: it spares the `bindings` package's search
 * (a dozen failed requires at start-up) and lets the command line bundle better-sqlite3's JavaScript. Empty
 * when the addon is not where npm installs it; better-sqlite3 then searches for it itself.
 */
export function sqliteAddon(): { nativeBinding?: string } {
  if (addon === undefined) {
    try {
      const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
      const path = join(root, 'build', 'Release', 'better_sqlite3.node');
      addon = existsSync(path) ? path : null;
    } catch {
      addon = null;
    }
  }
  return addon ? { nativeBinding: addon } : {};
}
