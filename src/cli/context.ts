import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Agent } from '../agent/agent.js';
import { type AppConfig, ConfigError, loadConfig } from '../config/config.js';
import { OpenAiCompatibleProvider } from '../llm/openai-provider.js';
import { MemoryManager } from '../memory/manager.js';
import { MemoryStorageError } from '../shared/errors.js';
import { ReviewWorkspace } from '../workspace/review-workspace.js';
import { EXIT } from './commands/command-output.js';
import type { Output } from './output.js';

/** Everything a command needs: the project, its Memory, the agent (when a model is configured). */
export interface CliContext {
  repoRoot: string;
  config: AppConfig;
  memory: MemoryManager;
  workspace: ReviewWorkspace;
  provider: OpenAiCompatibleProvider | null;
  agent: Agent | null;
  output: Output;
}

/** The CLI cannot start: a usage problem (exit 2) or storage that cannot be reached (exit 1). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
  constructor(message: string, readonly exitCode: number = EXIT.usage) {
    super(message);
  }
}

/** Reads the config and opens the project's Memory. A degraded Memory opens fine; status says why. */
export function openContext(options: { repo?: string; env?: NodeJS.ProcessEnv; output: Output }): CliContext {
  let config: AppConfig;
  try {
    config = loadConfig(options.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new StartupError(`invalid setting ${error.message}`);
    throw error;
  }
  const repoRoot = resolve(options.repo ?? process.cwd());
  if (!existsSync(repoRoot) || !statSync(repoRoot).isDirectory()) throw new StartupError(`--repo ${repoRoot} is not a folder`);
  const provider = config.llm ? new OpenAiCompatibleProvider(config.llm) : null;
  let memory: MemoryManager;
  try {
    memory = MemoryManager.open({ repoRoot, ...(provider ? { llm: provider } : {}), ...(config.llm ? { requestTimeoutMs: Math.min(60_000, config.llm.timeoutMs) } : {}) });
  } catch (error) {
    if (error instanceof MemoryStorageError) {
      const fix = error.fix !== null && !error.message.includes(error.fix) ? `\n  fix: ${error.fix}` : '';
      throw new StartupError(`${error.message}${fix}`, EXIT.failure);
    }
    throw error;
  }
  const workspace = new ReviewWorkspace(repoRoot);
  const agent = provider ? new Agent({ llm: provider, memory, repoRoot, workspace }) : null;
  return { repoRoot, config, memory, workspace, provider, agent, output: options.output };
}
