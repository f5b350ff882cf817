import type { LlmConfig } from '../../config/config.js';
import { LlmCallError, shortFailure } from '../../llm/diagnostics.js';
import { isModelNotFound } from '../../llm/guarded-client.js';
import { redactUrl } from '../../shared/redact.js';

/** A failed model call for a person: what happened, and what to do about it (null: nothing to change). */
export interface ModelFailure {
  problem: string;
  fix: string | null;
}

/**
 * What a person should do about a failed model call, in one or two lines: the variable to check and the
 * URL it points at. Never the provider's body (that is what AUTOPATCH_DEBUG=true shows).
 */
export function modelFailureText(error: unknown, llm: LlmConfig | null, options: { retried?: number } = {}): string {
  const { problem, fix } = describeModelFailure(error, llm, options);
  return fix ? `${problem} ${fix}` : problem;
}

/**
 * The problem and the fix of a failed model call, apart: `doctor` shows them in their own columns and,
 * being the check itself, is never told to run itself (`inDoctor`).
 */
export function describeModelFailure(
  error: unknown,
  llm: LlmConfig | null,
  options: { retried?: number; inDoctor?: boolean } = {},
): ModelFailure {
  if (!(error instanceof LlmCallError) || !llm) return { problem: `Request failed: ${shortFailure(error)}.`, fix: null };
  const d = error.details;
  // A base URL can carry credentials (https://user:key@host); they are never shown.
  const base = redactUrl(llm.baseUrl);
  const url = `${base}/chat/completions`;
  switch (d.kind) {
    case 'timeout':
      if (d.deadline)
        return { problem: `The model at ${base} did not finish its answer: ${error.message}. The request failed; try again.`, fix: null };
      return {
        problem:
          `The model at ${base} did not answer in time ` +
          `(${d.purpose === 'classifier' ? error.message : `AUTOPATCH_LLM_TIMEOUT_MS=${llm.timeoutMs}`}).`,
        fix: options.inDoctor ? 'Check that the provider at AUTOPATCH_LLM_BASE_URL is up and answers this model.' : null,
      };
    case 'network':
      return {
        problem: `The model provider at ${base} could not be reached.`,
        fix: `Check AUTOPATCH_LLM_BASE_URL and the network${options.inDoctor ? '' : ' (autopatch-j doctor tests it)'}.`,
      };
    case 'aborted':
      return { problem: 'cancelled', fix: null };
    case 'malformed_response':
      return {
        problem: `The model provider at ${base} sent an answer that could not be read.`,
        fix: 'Is AUTOPATCH_LLM_BASE_URL an OpenAI-compatible endpoint?',
      };
    case 'http':
      break;
  }
  const status = d.status ?? 0;
  if (status === 401 || status === 403) {
    return {
      problem: `The model provider refused the API key (HTTP ${status}) at ${url}.`,
      fix: `Check AUTOPATCH_LLM_API_KEY${llm.apiKey ? '' : ' (it is not set)'}.`,
    };
  }
  if (isModelNotFound(error))
    return { problem: `The model '${llm.model}' was not found at ${base} (HTTP ${status}).`, fix: 'Check AUTOPATCH_LLM_MODEL.' };
  if (status === 404)
    return {
      problem: `Nothing answers at ${url} (HTTP 404).`,
      fix: 'Check AUTOPATCH_LLM_BASE_URL (OpenAI-compatible base URLs often end in /v1).',
    };
  const tries = options.retried ? ` after ${options.retried} retr${options.retried === 1 ? 'y' : 'ies'}` : '';
  if (status === 429)
    return { problem: `The model provider at ${base} is rate limiting requests (HTTP 429)${tries}.`, fix: 'Wait a moment and try again.' };
  if (status >= 500) return { problem: `The model provider at ${base} failed (HTTP ${status})${tries}.`, fix: 'Try again later.' };
  return { problem: `The model provider at ${base} refused the request (HTTP ${status}).`, fix: null };
}
