import { z } from 'zod';
import { LlmCallError, rawDiagnostic, shortFailure } from '../llm/diagnostics.js';
import { type RetryNotice, retryAfterMs } from '../llm/guarded-client.js';
import type { LlmClient } from '../llm/types.js';
import { readModelJson, snakeCase } from '../shared/model-json.js';
import { INTENTS, type Intent } from '../memory/types.js';

export const CLASSIFIER_SYSTEM_PROMPT = `Classify the user's message for a coding assistant into exactly one intent:
- code_explain: explain or discuss code, architecture or behaviour of this repository.
- general_chat: anything else: questions, preferences, planning, conversation.
- code_audit: review or audit code for bugs or problems (find issues, possibly propose fixes).
- patch_explain: explain the pending patch.
- patch_revise: change or revise the pending patch.
Answer with exactly one JSON object and nothing else: {"intent": "<one of the five>"}.`;

const ClassifierAnswer = z.object({ intent: z.enum(INTENTS as unknown as [Intent, ...Intent[]]) });

/** The route of one input, with why a fallback was taken (kept even when the fallback succeeds, M-9.8). */
export interface RouteDecision {
  intent: Intent;
  fallback: null | { reason: string; raw: string };
}

/** Retries of the classifier on HTTP 429 or 5xx, as for main calls: a rate limit must not send a repair request to chat. */
export const CLASSIFIER_RETRIES = 3;
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 30_000;

export interface ClassifyOptions {
  signal?: AbortSignal;
  /** Called before each retry wait ("HTTP 429, retrying in 2 s"). */
  onRetry?: (notice: RetryNotice) => void;
  /** First wait when the provider sends no `retry-after` (doubles each time). */
  retryBaseMs?: number;
}

/**
 * Classifies a non-slash input with one short classifier call (INTERFACES.md §2.3), retried on HTTP 429
 * and 5xx (honouring `retry-after`). On any other failure, retries used up, or an answer outside the
 * contract the safe route is the ordinary general agent, never a repair flow.
 */
export async function classifyIntent(llm: LlmClient, input: string, options: ClassifyOptions | AbortSignal = {}): Promise<RouteDecision> {
  const { signal, onRetry, retryBaseMs = RETRY_BASE_MS } = options instanceof AbortSignal ? { signal: options } : options;
  let content: string;
  try {
    const request = {
      purpose: 'classifier' as const,
      messages: [
        { role: 'system' as const, content: CLASSIFIER_SYSTEM_PROMPT },
        { role: 'user' as const, content: input },
      ],
      ...(signal ? { signal } : {}),
    };
    for (let attempt = 0; ; attempt += 1) {
      try {
        content = (await llm.chat(request)).content;
        break;
      } catch (error) {
        const status = error instanceof LlmCallError && error.details.kind === 'http' ? error.details.status : undefined;
        if (status === undefined || (status !== 429 && status < 500) || attempt >= CLASSIFIER_RETRIES || signal?.aborted) throw error;
        const delayMs = Math.min(RETRY_MAX_MS, retryAfterMs(error as LlmCallError) ?? retryBaseMs * 2 ** attempt);
        onRetry?.({ attempt: attempt + 1, of: CLASSIFIER_RETRIES, delayMs, status });
        await wait(delayMs, signal);
      }
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    return {
      intent: 'general_chat',
      fallback: { reason: `classifier call failed: ${shortFailure(error)}`, raw: rawDiagnostic(error, { purpose: 'classifier' }) },
    };
  }
  let value: unknown;
  try {
    value = normalizeClassifierAnswer(readModelJson(content, { keys: ['intent'] }).value);
  } catch {
    return { intent: 'general_chat', fallback: { reason: 'classifier answer is not JSON', raw: `answer: ${content.slice(0, 2000)}` } };
  }
  const parsed = ClassifierAnswer.safeParse(value);
  if (!parsed.success) {
    return {
      intent: 'general_chat',
      fallback: { reason: 'classifier answer is outside the contract', raw: `answer: ${content.slice(0, 2000)}` },
    };
  }
  return { intent: parsed.data.intent, fallback: null };
}

/** Form repairs of a classifier answer: a wrapper, key and value case ("Code_Explain", "code-explain"). */
function normalizeClassifierAnswer(value: unknown): unknown {
  let object = value;
  if (object !== null && typeof object === 'object' && !Array.isArray(object) && !('intent' in object)) {
    object = Object.values(object).find((v) => v !== null && typeof v === 'object' && 'intent' in v) ?? object;
  }
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  for (const [key, raw] of Object.entries(object)) {
    if (snakeCase(key) === 'intent' && typeof raw === 'string') return { intent: snakeCase(raw.trim()) };
  }
  return object;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
