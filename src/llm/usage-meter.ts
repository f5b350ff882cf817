import type { ChatRequest, ChatResponse, LlmClient, TokenUsage } from './types.js';

/**
 * A model client that adds up the tokens its calls report, so the command line can say what one answer
 * cost. Calls whose provider reported nothing add nothing; with no report at all the total stays null.
 */
export class UsageMeter implements LlmClient {
  private total: TokenUsage | null = null;

  constructor(private readonly inner: LlmClient) {}

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const response = await this.inner.chat(request);
    if (response.usage) {
      this.total = {
        promptTokens: (this.total?.promptTokens ?? 0) + response.usage.promptTokens,
        completionTokens: (this.total?.completionTokens ?? 0) + response.usage.completionTokens,
      };
    }
    return response;
  }

  /** The tokens reported since the last call of `take()`, or null when none were; starts counting again. */
  take(): TokenUsage | null {
    const total = this.total;
    this.total = null;
    return total;
  }
}
