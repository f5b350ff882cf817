import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let addon: string | object | null | undefined;

/**
 * better-sqlite3's native addon for every `new Database`: by path where npm installs it (this spares the
 * `bindings` package's search, a dozen failed requires at start-up), else as `bindings` finds it from
 * better-sqlite3's own folder (a debug or other build layout). The command line bundles better-sqlite3's
 * JavaScript, where `bindings` would search from the bundle's folder instead. Empty when neither finds it:
 * better-sqlite3 then reports the search itself.
 */
export function sqliteAddon(): { nativeBinding?: string } {
  if (addon === undefined) {
    try {
      const manifest = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
      const root = dirname(manifest);
      const path = join(root, 'build', 'Release', 'better_sqlite3.node');
      if (existsSync(path)) addon = path;
      else {
        const bindings = createRequire(manifest)('bindings') as (options: { bindings: string; module_root: string }) => object;
        addon = bindings({ bindings: 'better_sqlite3.node', module_root: root });
      }
    } catch {
      addon = null;
    }
  }
  // better-sqlite3 takes the loaded addon object as well as a path; its type declarations name the path only.
  return addon ? { nativeBinding: addon as string } : {};
}
