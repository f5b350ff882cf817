import { accessSync, constants, existsSync, lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { Agent } from '../agent/agent.js';
import { type AppConfig, ConfigError, loadConfig, memoryRequestTimeoutMs } from '../config/config.js';
import { CLASSIFIER_TIMEOUT_MS, GuardedLlm } from '../llm/guarded-client.js';
import { LazyProvider } from '../llm/lazy-provider.js';
import { UsageMeter } from '../llm/usage-meter.js';
import { clearJournalPath, dataDir, memoryDbPath, pendingPatchPath } from '../memory/paths.js';
import type { MemoryManager } from '../memory/manager.js';
import { MemoryStorageError } from '../shared/errors.js';
import { resolveProject } from '../workspace/project-root.js';
import { ReviewWorkspace } from '../workspace/review-workspace.js';
import { EXIT } from './commands/command-output.js';
import { recoveryLines } from './commands/patch-recovery.js';
import { type Output, literal } from './output.js';
import type { SessionState } from './session-state.js';

/** Everything a command needs: the project, its Memory, the model (when one is configured). */
export interface CliContext {
  repoRoot: string;
  /** The repo-relative folder the command was started in ('' at the top or outside the project). */
  workingFolder: string;
  config: AppConfig;
  memory: MemoryManager;
  workspace: ReviewWorkspace;
  /** The configured model, guarded (timeouts, retries, remembered trouble); null without a provider. */
  llm: GuardedLlm | null;
  /** The agent, loaded on first use; null without a provider. */
  agent(): Promise<Agent | null>;
  /** The tokens the agent's calls reported (Memory's background calls are not counted); null without a provider. */
  usage: UsageMeter | null;
  output: Output;
  /** Set while an interactive or piped session runs: its notices and last answer. */
  session?: SessionState;
}

/** The CLI cannot start: a usage problem (exit 2) or storage that cannot be reached (exit 1). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A read-only command in a project that has no Memory yet: nothing is created. */
export class NoMemoryYet extends Error {
  override readonly name = 'NoMemoryYet';
  constructor(readonly repoRoot: string) {
    super(`No Memory in this project yet (${repoRoot}); it is created by the first request.`);
  }
}

export interface OpenOptions {
  repo?: string;
  env?: NodeJS.ProcessEnv;
  output: Output;
  /** `--model`: overrides AUTOPATCH_LLM_MODEL for this run. */
  model?: string;
  /** Read-only commands never create a database. */
  readOnly?: boolean;
}

/** Reads and validates the settings (with `--model` applied). */
export function readConfig(options: { env?: NodeJS.ProcessEnv; model?: string }): AppConfig {
  let config: AppConfig;
  try {
    config = loadConfig(options.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new StartupError(settingsText(error), EXIT.usage, { cause: error });
    throw error;
  }
  if (options.model !== undefined && config.llm) config = { ...config, llm: { ...config.llm, model: options.model } };
  return config;
}

/** `invalid setting X: …`, or every invalid setting on a line of its own, each with its fix. */
export function settingsText(error: ConfigError): string {
  if (error.problems.length === 1) return `invalid setting ${error.message} (${error.problems[0]!.fix})`;
  return ['invalid settings:', ...error.problems.map((p) => `  ${p.variable}: ${p.message} (${p.fix})`)].join('\n');
}

/** The project folder: `--repo` as given, else the git top level of the current folder. */
export function resolveRepo(repo: string | undefined): string {
  const { root, problem } = resolveProject(repo);
  if (problem !== null) throw new StartupError(problem);
  return root;
}

/**
 * Reads the config and opens the project's Memory. A degraded Memory opens fine; status says why. The
 * Memory module loads only past the read-only check, so "no Memory yet" costs almost nothing.
 */
export async function openContext(options: OpenOptions): Promise<CliContext> {
  const config = readConfig(options);
  if (config.noColor) options.output.color = false;
  const repoRoot = resolveRepo(options.repo);
  if (options.readOnly && hasNoMemoryYet(repoRoot)) throw new NoMemoryYet(repoRoot);
  const llm = config.llm
    ? new GuardedLlm(new LazyProvider(config.llm), { classifierTimeoutMs: Math.min(CLASSIFIER_TIMEOUT_MS, config.llm.timeoutMs) })
    : null;
  const { MemoryManager } = await import('../memory/manager.js');
  let memory: MemoryManager;
  try {
    memory = MemoryManager.open({
      repoRoot,
      ...(llm ? { llm } : {}),
      ...(config.llm ? { requestTimeoutMs: memoryRequestTimeoutMs(config.llm) } : {}),
    });
  } catch (error) {
    if (error instanceof MemoryStorageError) {
      const fix = error.fix !== null && !error.message.includes(error.fix) ? `\n  fix: ${error.fix}` : '';
      throw new StartupError(`${error.message}${fix}`, EXIT.failure);
    }
    throw error;
  }
  for (const notice of memory.startupNotices()) options.output.err(`memory: ${literal(notice)}\n`);
  const workspace = new ReviewWorkspace(repoRoot, { patchFile: pendingPatchPath(repoRoot) });
  for (const line of recoveryLines(workspace)) options.output.err(`${line}\n`);
  let agent: Promise<Agent | null> | null = null;
  const usage = llm ? new UsageMeter(llm) : null;
  const loadAgent = (): Promise<Agent | null> => {
    if (!usage) return Promise.resolve(null);
    agent ??= import('../agent/agent.js').then(
      ({ Agent }) => new Agent({ llm: usage, memory, repoRoot, workspace, workingFolder, instructionsFrom: process.cwd() }),
    );
    return agent;
  };
  const workingFolder = folderWithin(repoRoot, process.cwd());
  return { repoRoot, workingFolder, config, memory, workspace, llm, agent: loadAgent, usage, output: options.output };
}

/** `cwd` relative to the project (forward slashes), or '' when it is the top or outside it. */
export function folderWithin(repoRoot: string, cwd: string): string {
  let rel: string;
  try {
    rel = relative(realpathSync(repoRoot), realpathSync(cwd));
  } catch {
    return '';
  }
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return '';
  return rel.split(sep).join('/');
}

/**
 * True when a read-only command can say "no Memory yet" without opening anything: there is no database,
 * and nothing is wrong with the place it would live. A `.autopatch-j` that is a file or a symbolic link, or
 * a project where it could not be created, goes on to the storage checks, which name the problem and fix.
 */
function hasNoMemoryYet(repoRoot: string): boolean {
  const dir = dataDir(repoRoot);
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    try {
      accessSync(repoRoot, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
  // A clear a crash cut short (its database moved aside, the new one not yet in place) is Memory, not nothing.
  return stat.isDirectory() && !existsSync(memoryDbPath(repoRoot)) && !existsSync(clearJournalPath(repoRoot));
}
