import { redactSecrets } from './redact.js';

/**
 * What a Memory error means, as a stable word a program can branch on (`--json` and the MCP server print it).
 * A storage error's code is the SQLite or errno code behind it when there was one (`SQLITE_FULL`, `EACCES`).
 */
export type MemoryErrorCode =
  | 'memory_error'
  | 'degraded'
  | 'storage'
  | 'contract'
  | 'not_found'
  | 'lease_lost'
  | 'intent'
  | 'closed'
  | 'conflict'
  | 'timeout'
  | 'import_refused'
  | (string & {});

/** Base class of every error the Memory subsystem throws on purpose. */
export class MemoryError extends Error {
  override readonly name: string = 'MemoryError';
  readonly code: MemoryErrorCode = 'memory_error';
  /** True when the same call may succeed if made again unchanged (a race, a timeout). */
  readonly retryable: boolean = false;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  /** The error as data: `{ name, code, message, retryable }` plus what the subclass carries. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, retryable: this.retryable, ...this.details() };
  }

  protected details(): Record<string, unknown> {
    return {};
  }
}

/** The database is degraded, or the operational guard found meta or the active thread missing (M-2.4). */
export class MemorySchemaError extends MemoryError {
  override readonly name = 'MemorySchemaError';
  override readonly code = 'degraded';
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Memory is degraded: ${reason}`, options);
  }

  protected override details(): Record<string, unknown> {
    return { reason: this.reason };
  }
}

/**
 * The database or its folder cannot be opened, read or written (permissions, full disk, a lock held too
 * long, a read-only folder, a symbolic link): the data is not known to be damaged, so this is never the
 * degraded state and never a reason to clear. `fix` says what a person can do about it.
 */
export class MemoryStorageError extends MemoryError {
  override readonly name = 'MemoryStorageError';
  /** The SQLite or errno code behind the failure when there was one (`SQLITE_FULL`, `EACCES`, …), else 'storage'. */
  override readonly code: string;
  readonly fix: string | null;
  constructor(message: string, options?: { cause?: unknown; fix?: string; code?: string | null }) {
    super(message, options);
    this.fix = options?.fix ?? null;
    this.code = options?.code ?? 'storage';
  }

  protected override details(): Record<string, unknown> {
    return { fix: this.fix };
  }
}

/** A model answer that breaks the strict LLM JSON contract (INTERFACES.md §2). */
export class MemoryContractError extends MemoryError {
  override readonly name = 'MemoryContractError';
  override readonly code = 'contract';
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  protected override details(): Record<string, unknown> {
    return { issues: this.issues };
  }
}

/** No memory item (or no unique one) matches the id or prefix given. */
export class MemoryNotFoundError extends MemoryError {
  override readonly name = 'MemoryNotFoundError';
  override readonly code = 'not_found';
  constructor(
    readonly memoryId: string,
    message?: string,
  ) {
    super(message ?? `No memory matches id '${memoryId}'`);
  }

  protected override details(): Record<string, unknown> {
    return { id: this.memoryId };
  }
}

/** A turn or job lease was lost: another owner recovered it, or a clear fenced it (M-9.1, M-9.2). */
export class MemoryLeaseError extends MemoryError {
  override readonly name = 'MemoryLeaseError';
  override readonly code = 'lease_lost';
}

/** A repair intent was offered to Memory, which serves only ordinary intents (M-1.1). */
export class MemoryIntentError extends MemoryError {
  override readonly name = 'MemoryIntentError';
  override readonly code = 'intent';
  constructor(readonly intent: string) {
    super(`Intent '${intent}' never reads or writes Memory; only code_explain and general_chat do`);
  }

  protected override details(): Record<string, unknown> {
    return { intent: this.intent };
  }
}

/** A call on a Memory that was closed, or on a host (the MCP server) that is shutting down. */
export class MemoryClosedError extends MemoryError {
  override readonly name = 'MemoryClosedError';
  override readonly code = 'closed';
}

/**
 * Another writer changed what this call depended on between reading and writing (an item forgotten while a
 * consolidation ran, say). Nothing was written; the same call made again sees the new state.
 */
export class MemoryConflictError extends MemoryError {
  override readonly name = 'MemoryConflictError';
  override readonly code = 'conflict';
  override readonly retryable = true;
}

/** A model request made by Memory ran past its timeout. */
export class MemoryTimeoutError extends MemoryError {
  override readonly name = 'MemoryTimeoutError';
  override readonly code = 'timeout';
  override readonly retryable = true;
}

/**
 * A model answer from which no usable JSON can be read (empty, cut off, no object, two objects). Any caller
 * that reads model JSON throws it — the intent classifier as well as the Memory stages — so it is not a
 * Memory contract error; `problem` says why.
 */
export class ModelAnswerError extends Error {
  override readonly name = 'ModelAnswerError';
  readonly code = 'model_answer';
  constructor(
    readonly problem: 'empty' | 'no_json' | 'ambiguous' | 'truncated',
    message: string,
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, problem: this.problem };
  }
}

/**
 * `memory import` refused: the export file breaks the contract (foreign, damaged, tampered, newer), or the
 * target Memory is not empty. Nothing was changed; `reason` says why in words a person can act on.
 */
export class MemoryImportError extends MemoryError {
  override readonly name = 'MemoryImportError';
  override readonly code = 'import_refused';
  constructor(readonly reason: string) {
    super(`cannot import: ${reason}`);
  }

  protected override details(): Record<string, unknown> {
    return { reason: this.reason };
  }
}

/** Describe any thrown value in one line, for logs and short status text; credentials are redacted. */
export function describeError(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = '[unprintable error]';
  }
  return redactSecrets(text);
}

/** A call whose arguments cannot be used as given (an empty or oversized text): nothing was written. */
export class MemoryUsageError extends MemoryError {
  override readonly name = 'MemoryUsageError';
  override readonly code = 'usage';
}

/**
 * M-5.7: a candidate whose provenance failed (quote not in the RAW text, wrong role or thread, assistant
 * only, stitched across turns) can never be kept; `reason` names the failure. Nothing was written.
 */
export class MemoryProvenanceError extends MemoryError {
  override readonly name = 'MemoryProvenanceError';
  override readonly code = 'provenance';
  constructor(
    readonly candidateId: string,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }

  protected override details(): Record<string, unknown> {
    return { candidateId: this.candidateId, reason: this.reason };
  }
}

/**
 * Input that is not UTF-8 text (a file piped from GBK or Latin-1 tools): it is refused rather than decoded
 * with replacement characters, which would change the user's words that Memory keeps as RAW turns.
 */
export class InputEncodingError extends Error {
  override readonly name = 'InputEncodingError';
  constructor(
    /** The first byte that is not valid UTF-8, and where it is. */
    readonly byte: number,
    readonly offset: number,
  ) {
    super(
      `the piped input is not UTF-8 text (byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset}); ` +
        'nothing was sent or stored. Convert it first, e.g. iconv -f GB18030 -t UTF-8 (Chinese Windows files) ' +
        'or iconv -f LATIN1 -t UTF-8',
    );
  }
}
