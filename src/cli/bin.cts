#!/usr/bin/env node
// `autopatch-j` (package.json "bin"). The command line runs from one CommonJS file that `npm run build`
// bundles from program.ts and everything it imports (build/bundle-cli.mjs, esbuild), compiled here with the
// V8 code cache the build made beside it: one file with a code cache, entered from CommonJS, starts in a
// fraction of the time ~50 ES modules take (README, "Start-up"). A cache V8 rejects (another Node version)
// only loses that gain. `node dist/cli/main.js` comes here too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

// The bundle holds no import() (Node 20 cannot run one from code-cached code; the build refuses a bundle with
// one): ES-module packages (marked, string-width) are loaded with require, which Node runs from 20.19 and
// 22.12 on (process.features.require_module says so where it exists; 21.x and 22.0–22.11 need a flag).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const requireModule = (process.features as { require_module?: boolean }).require_module;
if (!(requireModule ?? ((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23))) {
  process.stderr.write(`autopatch-j: needs Node.js 20.19+ or 22.12+ (this is ${process.versions.node})\n`);
  process.exit(1);
}

const bundle = join(__dirname, 'autopatch-j.cjs');
let source: string;
try {
  source = readFileSync(bundle, 'utf8');
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  process.stderr.write(`autopatch-j: cannot read ${bundle} (${code}); run npm run build\n`);
  process.exit(1);
}
let cachedData: Buffer | undefined;
try {
  cachedData = readFileSync(`${bundle}.cache`);
} catch {
  cachedData = undefined;
}
const script = new Script(wrapCommonJs(source), { filename: bundle, ...(cachedData ? { cachedData } : {}) });
// What `autopatch-j doctor` reports about the start-up.
(globalThis as Record<symbol, unknown>)[Symbol.for('autopatch-j.codeCache')] =
  cachedData === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'accepted';
const bundled = { exports: {} };
(script.runInThisContext() as CommonJsWrapper)(bundled.exports, createRequire(bundle), bundled, bundle, __dirname);

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;

/** Node's CommonJS function wrapper; build/bundle-cli.mjs makes the code cache from exactly this text. */
function wrapCommonJs(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}
