import type { LlmConfig } from '../../config/config.js';
import { LlmCallError, shortFailure } from '../../llm/diagnostics.js';
import { isModelNotFound } from '../../llm/guarded-client.js';
import { redactUrl } from '../../shared/redact.js';

/**
 * What a person should do about a failed model call, in one or two lines: the variable to check and the
 * URL it points at. Never the provider's body (that is what AUTOPATCH_DEBUG=true shows).
 */
export function modelFailureText(error: unknown, llm: LlmConfig | null, options: { retried?: number } = {}): string {
  if (!(error instanceof LlmCallError) || !llm) return `Request failed: ${shortFailure(error)}.`;
  const d = error.details;
  // A base URL can carry credentials (https://user:key@host); they are never shown.
  const base = redactUrl(llm.baseUrl);
  const url = `${base}/chat/completions`;
  switch (d.kind) {
    case 'timeout':
      if (d.deadline) return `The model at ${base} did not finish its answer: ${error.message}. The request failed; try again.`;
      return (
        `The model at ${base} did not answer in time ` +
        `(${d.purpose === 'classifier' ? error.message : `AUTOPATCH_LLM_TIMEOUT_MS=${llm.timeoutMs}`}).`
      );
    case 'network':
      return (
        `The model provider at ${base} could not be reached. ` +
        'Check AUTOPATCH_LLM_BASE_URL and the network (autopatch-j doctor tests it).'
      );
    case 'aborted':
      return 'cancelled';
    case 'malformed_response':
      return (
        `The model provider at ${base} sent an answer that could not be read; ` + 'is AUTOPATCH_LLM_BASE_URL an OpenAI-compatible endpoint?'
      );
    case 'http':
      break;
  }
  const status = d.status ?? 0;
  if (status === 401 || status === 403) {
    return (
      `The model provider refused the API key (HTTP ${status}) at ${url}. ` +
      `Check AUTOPATCH_LLM_API_KEY${llm.apiKey ? '' : ' (it is not set)'}.`
    );
  }
  if (isModelNotFound(error)) return `The model '${llm.model}' was not found at ${base} (HTTP ${status}). Check AUTOPATCH_LLM_MODEL.`;
  if (status === 404)
    return `Nothing answers at ${url} (HTTP 404). Check AUTOPATCH_LLM_BASE_URL (OpenAI-compatible base URLs often end in /v1).`;
  const tries = options.retried ? ` after ${options.retried} retr${options.retried === 1 ? 'y' : 'ies'}` : '';
  if (status === 429) return `The model provider at ${base} is rate limiting requests (HTTP 429)${tries}. Wait a moment and try again.`;
  if (status >= 500) return `The model provider at ${base} failed (HTTP ${status})${tries}. Try again later.`;
  return `The model provider at ${base} refused the request (HTTP ${status}).`;
}
