/** Why a model call is made; the provider chooses its request policy from it (M-9.8). */
export type LlmPurpose = 'classifier' | 'react' | 'repair' | 'memory_extraction' | 'memory_consolidation';

export const SHORT_CALL_PURPOSES: readonly LlmPurpose[] = ['classifier', 'memory_extraction', 'memory_consolidation'];

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, exactly as the model produced it. */
  arguments: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCallId?: string;
  toolCalls?: ToolCall[];
}

export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: object;
}

export interface ChatRequest {
  purpose: LlmPurpose;
  messages: ChatMessage[];
  tools?: ToolSchema[];
  signal?: AbortSignal;
  /** Receives streamed answer text as it arrives (main calls only; short calls never stream). */
  onText?: (delta: string) => void;
}

/** Tokens a provider reported for one call. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResponse {
  content: string;
  toolCalls?: ToolCall[];
  /** The provider's finish reason when it gave one; "length" means the answer was cut off. */
  finishReason?: string | null;
  /** What the provider reported it used; absent when it reported nothing. */
  usage?: TokenUsage;
}

/** The one thing the rest of the program knows about a model. */
export interface LlmClient {
  chat(request: ChatRequest): Promise<ChatResponse>;
}
