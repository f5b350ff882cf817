import { z } from 'zod';
import { rawDiagnostic, shortFailure } from '../llm/diagnostics.js';
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

/**
 * Classifies a non-slash input with one short classifier call (INTERFACES.md §2.3). On any failure or an
 * answer outside the contract the safe route is the ordinary general agent, never a repair flow.
 */
export async function classifyIntent(llm: LlmClient, input: string, signal?: AbortSignal): Promise<RouteDecision> {
  let content: string;
  try {
    const response = await llm.chat({
      purpose: 'classifier',
      messages: [
        { role: 'system', content: CLASSIFIER_SYSTEM_PROMPT },
        { role: 'user', content: input },
      ],
      ...(signal ? { signal } : {}),
    });
    content = response.content;
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
