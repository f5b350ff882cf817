import { MemoryContractError, ModelAnswerError } from '../shared/errors.js';
import { redactSecrets } from '../shared/redact.js';
import type { LlmPurpose } from './types.js';
import { SHORT_CALL_PURPOSES } from './types.js';

/** M-9.5: RAW diagnostics keep at most this many characters. */
export const RAW_DIAGNOSTIC_LIMIT = 20_000;

/** How a call was made (M-9.8): short calls never stream and never carry reasoning options. */
export interface CallPolicy {
  stream: boolean;
  reasoning: boolean;
}

export function policyFor(purpose: LlmPurpose, options: { reasoningConfigured: boolean }): CallPolicy {
  if (SHORT_CALL_PURPOSES.includes(purpose)) return { stream: false, reasoning: false };
  return { stream: true, reasoning: options.reasoningConfigured };
}

/**
 * A failed model call, with what the provider said. It never holds the request: no messages, prompt,
 * headers or key (M-9.5); the provider's own text is kept as it came, unscrubbed.
 */
export class LlmCallError extends Error {
  override readonly name = 'LlmCallError';
  constructor(
    message: string,
    readonly details: {
      purpose: LlmPurpose;
      policy: CallPolicy;
      durationMs: number;
      kind: 'http' | 'timeout' | 'aborted' | 'network' | 'malformed_response';
      status?: number;
      code?: string | null;
      errorType?: string | null;
      body?: string | null;
      /** A streamed answer that stalled (`idle`) or ran too long (`total`): the message says which and how long. */
      deadline?: 'idle' | 'total';
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** One record per model call (M-9.8), kept in memory for `AUTOPATCH_DEBUG` output and tests. */
export interface CallRecord {
  purpose: LlmPurpose;
  policy: CallPolicy;
  durationMs: number;
  outcome: 'ok' | 'error';
  /** Bounded RAW text on failure. */
  raw?: string;
}

function bodyText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * The bounded RAW diagnostic of a failure (M-9.5): exception type, message, structured status/code,
 * exception body and provider response body. Nothing of the request is ever attached, and credentials a
 * client may put into its own messages (URL user info, `?api_key=`, `token=`, …) are redacted; the
 * provider's response body stays as it came.
 */
export function rawDiagnostic(error: unknown, context: { purpose?: LlmPurpose; policy?: CallPolicy } = {}): string {
  const lines: string[] = [];
  const purpose = context.purpose ?? (error instanceof LlmCallError ? error.details.purpose : undefined);
  const policy = context.policy ?? (error instanceof LlmCallError ? error.details.policy : undefined);
  if (purpose) {
    const how = policy ? ` (stream ${policy.stream ? 'on' : 'off'}, reasoning ${policy.reasoning ? 'on' : 'off'})` : '';
    lines.push(`purpose: ${purpose}${how}`);
  }
  if (error instanceof Error) {
    lines.push(`type: ${error.name}`);
    lines.push(`message: ${redactSecrets(error.message)}`);
    if (error instanceof LlmCallError) {
      const d = error.details;
      lines.push(`kind: ${d.kind}`);
      if (d.status !== undefined) lines.push(`status: ${d.status}`);
      if (d.code) lines.push(`code: ${d.code}`);
      if (d.errorType) lines.push(`error type: ${d.errorType}`);
      lines.push(`duration: ${d.durationMs} ms`);
      if (d.body) lines.push(`response body: ${d.body}`);
    } else if (error instanceof MemoryContractError) {
      for (const issue of error.issues.slice(0, 50)) lines.push(`issue: ${redactSecrets(issue)}`);
    } else if (error instanceof ModelAnswerError) {
      lines.push(`issue: ${error.problem}`);
    } else {
      const extra = error as { status?: unknown; code?: unknown; body?: unknown };
      if (extra.status !== undefined) lines.push(`status: ${String(extra.status)}`);
      if (extra.code !== undefined) lines.push(`code: ${String(extra.code)}`);
      const body = bodyText(extra.body);
      if (body) lines.push(`body: ${body}`);
    }
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error && !(error instanceof LlmCallError && error.details.kind === 'http')) {
      lines.push(`cause: ${cause.name}: ${redactSecrets(cause.message)}`);
    }
  } else {
    lines.push(`type: ${typeof error}`);
    lines.push(`message: ${redactSecrets(String(error))}`);
  }
  const text = lines.join('\n');
  return text.length <= RAW_DIAGNOSTIC_LIMIT ? text : `${text.slice(0, RAW_DIAGNOSTIC_LIMIT - 12)}\n[truncated]`;
}

/** The one short line normal mode shows for a failure (M-9.7): never the provider body. */
export function shortFailure(error: unknown): string {
  if (error instanceof LlmCallError) {
    const d = error.details;
    if (d.kind === 'timeout') return `the model did not answer within the timeout (${d.purpose})`;
    if (d.kind === 'http') return `the model provider returned HTTP ${d.status ?? '?'} (${d.purpose})`;
    if (d.kind === 'network') return `the model provider could not be reached (${d.purpose})`;
    if (d.kind === 'aborted') return `the request was cancelled (${d.purpose})`;
    return `the model provider sent an answer that could not be read (${d.purpose})`;
  }
  if (error instanceof MemoryContractError) return 'the model answer broke the Memory contract';
  if (error instanceof ModelAnswerError) return 'the model answer held no usable JSON';
  if (error instanceof Error) return error.name;
  return 'unknown error';
}
