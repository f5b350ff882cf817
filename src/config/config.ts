import { redactUrl } from '../shared/redact.js';

/** The model provider settings (INTERFACES.md §3). */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  reasoningEffort: string | null;
  extraBody: Record<string, unknown>;
  /** Merged into the short calls only: the classifier and the two Memory stages (INTERFACES.md §3). */
  shortExtraBody?: Record<string, unknown>;
  /** Model of the Memory stages; null means the main model. */
  memoryModel?: string | null;
  timeoutMs: number;
  /** A streamed main call fails when no chunk arrives for this long (default: `timeoutMs`). */
  streamIdleMs?: number;
  /** A streamed main call fails when it has not finished after this long (default: 4 × `timeoutMs`). */
  streamTotalMs?: number;
}

export interface AppConfig {
  /** Null when no provider is configured: the CLI still starts and Memory commands work. */
  llm: LlmConfig | null;
  debug: boolean;
  /** NO_COLOR is set (https://no-color.org): no colour anywhere. */
  noColor: boolean;
}

/** A setting that cannot be used, with the variable to fix. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

export const DEFAULT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_MODEL = 'deepseek-chat';
export const DEFAULT_TIMEOUT_MS = 60_000;
/** A streamed main call may run this many request timeouts in all (a long answer streams for minutes). */
export const STREAM_TOTAL_TIMEOUTS = 4;

/** The deadlines of a streamed main call, both derived from `AUTOPATCH_LLM_TIMEOUT_MS` (issue "Safe hands", item 3). */
export function streamDeadlines(llm: Pick<LlmConfig, 'timeoutMs' | 'streamIdleMs' | 'streamTotalMs'>): { idleMs: number; totalMs: number } {
  return { idleMs: llm.streamIdleMs ?? llm.timeoutMs, totalMs: llm.streamTotalMs ?? STREAM_TOTAL_TIMEOUTS * llm.timeoutMs };
}

/** What a person must set to use a model; the first request says exactly this when none is configured. */
export const PROVIDER_SETUP_HINT =
  'No model provider is configured. Set AUTOPATCH_LLM_API_KEY (and AUTOPATCH_LLM_BASE_URL / AUTOPATCH_LLM_MODEL ' +
  `for a provider other than ${DEFAULT_BASE_URL} with ${DEFAULT_MODEL}); for a local endpoint that needs no key, ` +
  'set AUTOPATCH_LLM_BASE_URL alone (for example http://127.0.0.1:11434/v1 for Ollama).';

/**
 * Reads the environment once and validates it (nothing else reads `process.env`). A provider is configured
 * when an API key is set, or when a base URL is set for an endpoint that needs no key.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const value = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const debug = parseBoolean('AUTOPATCH_DEBUG', value('AUTOPATCH_DEBUG'));
  const apiKey = value('AUTOPATCH_LLM_API_KEY') ?? null;
  const baseUrlSetting = value('AUTOPATCH_LLM_BASE_URL');
  const extraBody = parseExtraBody('AUTOPATCH_LLM_EXTRA_BODY', value('AUTOPATCH_LLM_EXTRA_BODY'), '{"temperature": 0.2}');
  const shortExtraBody = parseExtraBody(
    'AUTOPATCH_LLM_SHORT_EXTRA_BODY',
    value('AUTOPATCH_LLM_SHORT_EXTRA_BODY'),
    '{"enable_thinking": false}',
  );
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  const timeout = value('AUTOPATCH_LLM_TIMEOUT_MS');
  if (timeout !== undefined) {
    timeoutMs = Number(timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new ConfigError('AUTOPATCH_LLM_TIMEOUT_MS', `must be a positive whole number of milliseconds, got '${timeout}'`);
    }
  }
  let baseUrl = baseUrlSetting ?? DEFAULT_BASE_URL;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    baseUrl = url.toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError('AUTOPATCH_LLM_BASE_URL', `must be an http(s) URL, got '${redactUrl(baseUrl)}'`);
  }
  const configured = apiKey !== null || baseUrlSetting !== undefined;
  return {
    debug,
    noColor: env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '',
    llm: configured
      ? {
          baseUrl,
          apiKey,
          model: value('AUTOPATCH_LLM_MODEL') ?? DEFAULT_MODEL,
          reasoningEffort: value('AUTOPATCH_LLM_REASONING_EFFORT') ?? null,
          extraBody,
          shortExtraBody,
          memoryModel: value('AUTOPATCH_LLM_MEMORY_MODEL') ?? null,
          timeoutMs,
          streamIdleMs: timeoutMs,
          streamTotalMs: STREAM_TOTAL_TIMEOUTS * timeoutMs,
        }
      : null,
  };
}

function parseBoolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got '${raw}'`);
}

/** A JSON-object setting merged into request bodies; anything else is a clear startup message. */
function parseExtraBody(name: string, raw: string | undefined, example: string): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(name, `is not valid JSON (${(error as Error).message}); expected an object such as ${example}`);
  }
  // A plain check, not a schema: the config is read by every command and must not load a validator.
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError(name, `must be a JSON object such as ${example}`);
  return parsed as Record<string, unknown>;
}

let crashAt: string | undefined;

/**
 * Test hook of the crash tests, read here like every setting: with `AUTOPATCH_TEST_CRASH_AT=<point>` the process
 * kills itself with SIGKILL when it reaches that named point — a real kill -9 at an exact step (the renames of a
 * clear). Unset, it costs one comparison.
 */
export function crashPoint(name: string): void {
  crashAt ??= process.env['AUTOPATCH_TEST_CRASH_AT'] ?? '';
  if (crashAt === name) process.kill(process.pid, 'SIGKILL');
}
