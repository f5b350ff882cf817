// Bundles the command line into dist/cli/autopatch-j.cjs (run by `npm run build` after tsc): our modules,
// commander, picocolors and better-sqlite3's JavaScript (needed by every command; its native addon is
// required from node_modules by path, see src/memory/sqlite-addon.ts) in one CommonJS file. The other npm
// packages stay outside, required where they are used, so the model SDK, zod and the MCP SDK still load only
// for the commands that need them. dist/cli/bin.cjs runs it.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const cli = fileURLToPath(new URL('../dist/cli/', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const BUNDLED = new Set(['commander', 'picocolors', 'better-sqlite3']);
const external = Object.keys(pkg.dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

await build({
  // As the ES module it was, the command line ends with exit code 13 if main() never settles (an unsettled
  // top-level await) instead of a silent 0.
  stdin: {
    contents: [
      "import { main } from './program.js';",
      'let settled = false;',
      'void main().finally(() => (settled = true));',
      "process.on('beforeExit', () => { if (!settled) process.exitCode = 13; });",
    ].join('\n'),
    resolveDir: cli,
    sourcefile: 'autopatch-j.js',
  },
  outfile: `${cli}autopatch-j.cjs`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external,
  // import.meta.url (package.json lookups, createRequire) keeps meaning the file's own URL.
  define: { 'import.meta.url': '__importMetaUrl' },
  // Strict, as the ES modules it is made of were.
  banner: { js: "'use strict';\nconst __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'linked',
  logLevel: 'warning',
});

// Node 20 cannot run import() from code-cached code (the bin would fail at that point, not here).
if (/\bimport\(/.test(readFileSync(`${cli}autopatch-j.cjs`, 'utf8'))) {
  throw new Error('the CLI bundle contains import(): load that package with require (createRequire) instead');
}

// The V8 code cache of the bundle, compiled exactly as src/cli/bin.cts compiles it (same wrapper, same
// file name): start-up skips parsing ~0.5 MB. V8 rejects it under another Node version; nothing else changes.
const file = `${cli}autopatch-j.cjs`;
const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
writeFileSync(`${file}.cache`, new Script(wrapped, { filename: file }).createCachedData());
