// Public API of autopatch-j (INTERFACES.md §1). Re-exports only.
export { MemoryManager, type MemoryManagerOptions } from './memory/manager.js';
export type {
  ChatMessage,
  ClearResult,
  DrainResult,
  DrainWarning,
  ExportResult,
  ForgetResult,
  ImportResult,
  Intent,
  JobCounts,
  JobOutcome,
  MatchClass,
  MemoriesUsed,
  MemoryChange,
  MemoryDetail,
  MemoryHealth,
  MemoryItemSummary,
  MemoryKind,
  MemoryRevision,
  MemoryStatus,
  NewThreadResult,
  OpenJobCounts,
  OrdinaryIntent,
  FailedJob,
  ProcessResult,
  RetryResult,
  ProvenanceSource,
  RefusedCandidate,
  RememberResult,
  RoutedItem,
  SuggestedCandidate,
  SearchHit,
  TurnHandle,
  TurnRecord,
} from './memory/types.js';
export { INTENTS, MEMORY_KINDS, ORDINARY_INTENTS, isOrdinaryIntent } from './memory/types.js';
export {
  MemoryClosedError,
  MemoryConflictError,
  MemoryContractError,
  MemoryError,
  type MemoryErrorCode,
  MemoryImportError,
  MemoryIntentError,
  MemoryLeaseError,
  MemoryNotFoundError,
  MemoryProvenanceError,
  MemorySchemaError,
  MemoryStorageError,
  MemoryTimeoutError,
  MemoryUsageError,
  ModelAnswerError,
} from './shared/errors.js';
export type { ChatRequest, ChatResponse, LlmClient, LlmPurpose, TokenUsage, ToolCall, ToolSchema } from './llm/types.js';
export { ScriptedLlm, type ScriptStep } from './llm/scripted-llm.js';
export { SCHEMA_SQL, SCHEMA_VERSION } from './memory/db/schema.js';
export type { CheckedExport } from './memory/lifecycle/import.js';
