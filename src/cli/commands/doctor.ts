import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLASSIFIER_TIMEOUT_MS, GuardedLlm } from '../../llm/guarded-client.js';
import { LazyProvider } from '../../llm/lazy-provider.js';
import { dataDir, memoryDbPath } from '../../memory/paths.js';
import { describeError } from '../../shared/errors.js';
import { redactUrl } from '../../shared/redact.js';
import { type AppConfig, ConfigError } from '../../config/config.js';
import { rawDiagnostic } from '../../llm/diagnostics.js';
import { StartupError, readConfig, resolveRepo } from '../context.js';
import { type Output, literal } from '../output.js';
import { ROOT_INSTRUCTION_FILES, loadProjectInstructions } from '../../workspace/project-instructions.js';
import { describeModelFailure } from '../render/errors.js';
import { instructionFilesText, skippedInstructionsText } from '../render/instruction-files.js';
import { styleFor } from '../render/style.js';
import { renderColumns } from '../render/wrap.js';
import { type CommandOutput, EXIT } from './command-output.js';
import { patchesCheck } from './patch-recovery.js';

/** One line of `autopatch-j doctor`. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do when it is not ok. */
  fix: string | null;
  /** Not run: what it needs failed above (not ok, yet not counted as failed). */
  skipped?: true;
}

/**
 * `autopatch-j doctor`: the settings, the provider reached with one tiny request, the Memory database and
 * the data folder, as a ✓/✗ table with a fix for every ✗ (or `--json`). Exit 0 when all pass, else 1.
 */
export async function runDoctor(options: { repo?: string; model?: string; output: Output }): Promise<CommandOutput> {
  const checks: Check[] = [];
  // ES-module packages are loaded with require (the bin refuses to start without it).
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const requireModule = (process.features as { require_module?: boolean }).require_module;
  const nodeOk = requireModule ?? ((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23);
  checks.push({
    name: 'node',
    ok: nodeOk,
    detail: `Node.js ${process.versions.node}`,
    fix: nodeOk ? null : 'install Node.js 20.19+ or 22.12+',
  });
  const codeCache = (globalThis as Record<symbol, unknown>)[Symbol.for('autopatch-j.codeCache')];
  if (typeof codeCache === 'string') {
    checks.push({
      name: 'start-up',
      ok: true,
      detail:
        codeCache === 'accepted'
          ? 'the command line starts from its code cache'
          : `the code cache is ${codeCache} (made by another Node.js, or not built): ` +
            'each start parses the bundle, a few ms slower; npm run build makes it again',
      fix: null,
    });
  }
  let config: AppConfig | null = null;
  try {
    config = readConfig({ ...(options.model ? { model: options.model } : {}) });
    checks.push({ name: 'settings', ok: true, detail: 'all AUTOPATCH_* settings are valid', fix: null });
  } catch (error) {
    // Every invalid setting, each on its own line with its own fix.
    const invalid = error instanceof StartupError && error.cause instanceof ConfigError ? error.cause.problems : null;
    if (!invalid) checks.push({ name: 'settings', ok: false, detail: describeError(error), fix: null });
    for (const p of invalid ?? []) checks.push({ name: 'settings', ok: false, detail: `${p.variable}: ${p.message}`, fix: p.fix });
  }
  let raw: string | null = null;
  if (!config) {
    // Said, not left out: without valid settings there is no provider to reach.
    for (const name of ['provider', 'model answers'])
      checks.push({ name, ok: false, skipped: true, detail: 'not checked: the settings above are invalid', fix: null });
  }
  if (config) {
    if (!config.llm) {
      checks.push({
        name: 'provider',
        ok: false,
        detail: 'no model provider is configured',
        fix: 'set AUTOPATCH_LLM_API_KEY (and AUTOPATCH_LLM_BASE_URL / AUTOPATCH_LLM_MODEL for a provider other than DeepSeek)',
      });
    } else {
      const llm = config.llm;
      checks.push({
        name: 'provider',
        ok: true,
        detail: `${literal(llm.model)} at ${literal(redactUrl(llm.baseUrl))}${llm.apiKey ? ' (API key set)' : ' (no API key)'}`,
        fix: null,
      });
      const client = new GuardedLlm(new LazyProvider(llm), {
        classifierTimeoutMs: Math.min(CLASSIFIER_TIMEOUT_MS, llm.timeoutMs),
        maxRetries: 0,
      });
      const started = Date.now();
      try {
        // The smallest request that proves the key, the URL and the model: a short call with one word.
        await client.chat({ purpose: 'classifier', messages: [{ role: 'user', content: 'Reply with: ok' }] });
        checks.push({ name: 'model answers', ok: true, detail: `answered in ${Date.now() - started} ms`, fix: null });
      } catch (error) {
        const { problem, fix } = describeModelFailure(error, llm, { inDoctor: true });
        if (config.debug) raw = rawDiagnostic(error);
        checks.push({
          name: 'model answers',
          ok: false,
          detail: literal(problem),
          fix: fix ?? (config.debug ? 'the provider said what is below' : "set AUTOPATCH_DEBUG=true to see the provider's own answer"),
        });
      }
    }
  }
  let root: string | null = null;
  try {
    root = resolveRepo(options.repo);
  } catch (error) {
    checks.push({
      name: 'project',
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
      fix: 'pass an existing folder with --repo',
    });
  }
  if (root) {
    checks.push({ name: 'project', ok: true, detail: root, fix: null });
    checks.push(instructionsCheck(root));
    if (!existsSync(memoryDbPath(root))) {
      checks.push({ name: 'memory', ok: true, detail: 'no Memory in this project yet (the first request creates it)', fix: null });
    } else {
      const { MemoryManager } = await import('../../memory/manager.js');
      try {
        const memory = MemoryManager.open({ repoRoot: root });
        const status = memory.status();
        await memory.close();
        if (status.health === 'healthy') {
          const stuck = status.jobs.retryWait + ((status.jobs as { failed?: number }).failed ?? 0);
          checks.push({
            name: 'memory',
            ok: stuck === 0,
            detail:
              `healthy, schema v${status.schemaVersion}, ${status.jobs.pending} job(s) pending` +
              `${stuck > 0 ? `, ${stuck} waiting to retry or failed` : ''}`,
            fix: stuck > 0 ? 'autopatch-j memory status shows why the jobs fail' : null,
          });
        } else {
          checks.push({
            name: 'memory',
            ok: false,
            detail: `degraded: ${literal(status.degradedReason ?? 'unknown')}`,
            fix: 'autopatch-j memory export, then autopatch-j memory clear --confirm',
          });
        }
      } catch (error) {
        checks.push({ name: 'memory', ok: false, detail: literal(describeError(error)), fix: 'check the permissions of .autopatch-j/' });
      }
      const ignored = existsSync(join(dataDir(root), '.gitignore'));
      checks.push({
        name: 'data folder',
        ok: ignored,
        detail: ignored ? '.autopatch-j/ ignores itself in git' : '.autopatch-j/.gitignore is missing',
        fix: ignored ? null : "run any request, or: echo '*' > .autopatch-j/.gitignore",
      });
    }
    checks.push(patchesCheck(root));
  }
  const allOk = checks.every((c) => c.ok);
  const style = styleFor(options.output);
  const rows = checks.map((c) => [
    `${c.skipped ? style.dim('-') : c.ok ? style.green('✓') : style.red('✗')} ${c.name}`,
    c.ok || !c.fix ? c.detail : `${c.detail} — fix: ${c.fix}`,
  ]);
  const failed = checks.filter((c) => !c.ok && !c.skipped).length;
  const skippedCount = checks.filter((c) => c.skipped).length;
  const text = [
    renderColumns(rows, options.output.outTerminal ? options.output.columns() : 100),
    ...(raw !== null ? [`[debug] ${literal(raw)}`] : []),
    allOk ? 'All checks passed.' : `${failed} check(s) failed${skippedCount > 0 ? `, ${skippedCount} skipped` : ''}.`,
  ].join('\n');
  // A report: on stdout whatever it found.
  return {
    text,
    rich: true,
    channel: 'out',
    json: { ok: allOk, checks, ...(raw !== null ? { debug: raw } : {}) },
    exitCode: allOk ? EXIT.ok : EXIT.failure,
  };
}

/** The instruction files a request would carry from here; a skipped file is a note, not a failure. */
function instructionsCheck(root: string): Check {
  const instructions = loadProjectInstructions(root, process.cwd());
  const read =
    instructions.files.length > 0
      ? instructionFilesText(instructions)
      : `none (${ROOT_INSTRUCTION_FILES.join(', ')} are read when present)`;
  const skipped = skippedInstructionsText(instructions);
  return { name: 'instructions', ok: true, detail: `${read}${skipped.length > 0 ? `; skipped ${skipped.join('; ')}` : ''}`, fix: null };
}
