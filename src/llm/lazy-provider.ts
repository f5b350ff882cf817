import type { LlmConfig } from '../config/config.js';
import type { ChatRequest, ChatResponse, LlmClient } from './types.js';

/**
 * The OpenAI-compatible provider, loaded on the first call: the SDK is the heaviest import of the program
 * and commands that never call a model (`memory list`, `--version`) should not wait for it.
 */
export class LazyProvider implements LlmClient {
  private provider: Promise<LlmClient> | null = null;

  constructor(private readonly config: LlmConfig) {}

  chat(request: ChatRequest): Promise<ChatResponse> {
    this.provider ??= import('./openai-provider.js').then(({ OpenAiCompatibleProvider }) => new OpenAiCompatibleProvider(this.config));
    return this.provider.then((provider) => provider.chat(request));
  }
}
