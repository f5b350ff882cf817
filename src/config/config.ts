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
  /** M-11.2: the lines saying what the background Memory did; `AUTOPATCH_MEMORY_NOTICES=off` silences them. */
  memoryNotices: boolean;
}

/** One setting that cannot be used: the variable, what is wrong, and what to set instead. */
export interface SettingProblem {
  variable: string;
  message: string;
  fix: string;
}

/** Settings that cannot be used: every one found, not only the first, each with the variable to fix. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The first problem's variable. */
  readonly variable: string;
  readonly problems: readonly SettingProblem[];

  constructor(variable: string, message: string, fix: string);
  constructor(problems: readonly SettingProblem[]);
  constructor(first: string | readonly SettingProblem[], message?: string, fix?: string) {
    const problems = typeof first === 'string' ? [{ variable: first, message: message!, fix: fix! }] : first;
    super(problems.map((p) => `${p.variable}: ${p.message}`).join('; '));
    this.problems = problems;
    this.variable = problems[0]!.variable;
  }
}

/** The reasoning efforts OpenAI-compatible endpoints know (the `reasoning_effort` values of the OpenAI API). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

export const DEFAULT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_MODEL = 'deepseek-chat';
export const DEFAULT_TIMEOUT_MS = 60_000;
/** M-10.2: a Memory worker request (and each exit-pass request) waits at most this long. */
export const MEMORY_REQUEST_TIMEOUT_MS = 60_000;

/** The timeout of a Memory worker request: M-10.2's cap, never more than AUTOPATCH_LLM_TIMEOUT_MS. */
export function memoryRequestTimeoutMs(llm: Pick<LlmConfig, 'timeoutMs'> | null): number {
  return Math.min(MEMORY_REQUEST_TIMEOUT_MS, llm?.timeoutMs ?? MEMORY_REQUEST_TIMEOUT_MS);
}
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
 * when an API key is set, or when a base URL is set for an endpoint that needs no key. Every invalid
 * setting is reported at once (one ConfigError listing them all), so fixing one does not reveal the next.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: SettingProblem[] = [];
  const value = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const checked = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return fallback;
    }
  };
  const debug = checked(() => parseBoolean('AUTOPATCH_DEBUG', value('AUTOPATCH_DEBUG')), false);
  const memoryNotices = checked(() => parseBoolean('AUTOPATCH_MEMORY_NOTICES', value('AUTOPATCH_MEMORY_NOTICES') ?? 'on'), true);
  const apiKey = value('AUTOPATCH_LLM_API_KEY') ?? null;
  const baseUrlSetting = value('AUTOPATCH_LLM_BASE_URL');
  const extraBody = checked(
    () => parseExtraBody('AUTOPATCH_LLM_EXTRA_BODY', value('AUTOPATCH_LLM_EXTRA_BODY'), '{"temperature": 0.2}'),
    {},
  );
  const shortExtraBody = checked(
    () => parseExtraBody('AUTOPATCH_LLM_SHORT_EXTRA_BODY', value('AUTOPATCH_LLM_SHORT_EXTRA_BODY'), '{"enable_thinking": false}'),
    {},
  );
  const timeoutMs = checked(() => parseTimeout(value('AUTOPATCH_LLM_TIMEOUT_MS')), DEFAULT_TIMEOUT_MS);
  const baseUrl = checked(() => parseBaseUrl(baseUrlSetting ?? DEFAULT_BASE_URL), DEFAULT_BASE_URL);
  const reasoningEffort = checked(() => parseReasoningEffort(value('AUTOPATCH_LLM_REASONING_EFFORT')), null);
  const model = checked(() => modelName(env, 'AUTOPATCH_LLM_MODEL') ?? DEFAULT_MODEL, DEFAULT_MODEL);
  const memoryModel = checked(() => modelName(env, 'AUTOPATCH_LLM_MEMORY_MODEL'), null);
  if (problems.length > 0) throw new ConfigError(problems);
  const configured = apiKey !== null || baseUrlSetting !== undefined;
  return {
    debug,
    noColor: env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '',
    memoryNotices,
    llm: configured
      ? {
          baseUrl,
          apiKey,
          model,
          reasoningEffort,
          extraBody,
          shortExtraBody,
          memoryModel,
          timeoutMs,
          streamIdleMs: timeoutMs,
          streamTotalMs: STREAM_TOTAL_TIMEOUTS * timeoutMs,
        }
      : null,
  };
}

function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new ConfigError(
      'AUTOPATCH_LLM_TIMEOUT_MS',
      `must be a positive whole number of milliseconds, got '${raw}'`,
      `set a number of milliseconds such as 60000, or unset it for the default (${DEFAULT_TIMEOUT_MS})`,
    );
  }
  return ms;
}

function parseBaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url.toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(
      'AUTOPATCH_LLM_BASE_URL',
      `must be an http(s) URL, got '${redactUrl(raw)}'`,
      `set the provider's OpenAI-compatible base URL, such as ${DEFAULT_BASE_URL} or http://127.0.0.1:11434/v1`,
    );
  }
}

/** A known effort, lower-cased; anything else would be sent as it is and refused by the provider (or ignored). */
function parseReasoningEffort(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const effort = raw.toLowerCase();
  if ((REASONING_EFFORTS as readonly string[]).includes(effort)) return effort;
  throw new ConfigError(
    'AUTOPATCH_LLM_REASONING_EFFORT',
    `'${raw}' is not a reasoning effort`,
    `use one of ${REASONING_EFFORTS.join(', ')}, or unset it to send none`,
  );
}

/** A model name: unset means the default, but a variable set to nothing is a mistake, not the default. */
function modelName(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  if (raw === undefined) return null;
  if (raw.trim() === '')
    throw new ConfigError(
      name,
      'is set but empty',
      name === 'AUTOPATCH_LLM_MODEL'
        ? `name a model, or unset it for the default (${DEFAULT_MODEL})`
        : 'name a model, or unset it to use the main model',
    );
  return raw.trim();
}

function parseBoolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got '${raw}'`, 'set it to true or false, or unset it');
}

/** A JSON-object setting merged into request bodies; anything else is a clear startup message. */
function parseExtraBody(name: string, raw: string | undefined, example: string): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(
      name,
      `is not valid JSON (${(error as Error).message}); expected an object such as ${example}`,
      `set a JSON object such as ${example}, or unset it`,
    );
  }
  // A plain check, not a schema: the config is read by every command and must not load a validator.
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError(name, `must be a JSON object such as ${example}`, `set a JSON object such as ${example}, or unset it`);
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
