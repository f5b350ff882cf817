import { redactSecrets } from './redact.js';

/** Base class of every error the Memory subsystem throws on purpose. */
export class MemoryError extends Error {
  override readonly name: string = 'MemoryError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The database is degraded, or the operational guard found meta or the active thread missing (M-2.4). */
export class MemorySchemaError extends MemoryError {
  override readonly name = 'MemorySchemaError';
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Memory is degraded: ${reason}`, options);
  }
}

/**
 * The database or its folder cannot be opened, read or written (permissions, full disk, a lock held too
 * long, a read-only folder, a symbolic link): the data is not known to be damaged, so this is never the
 * degraded state and never a reason to clear. `fix` says what a person can do about it.
 */
export class MemoryStorageError extends MemoryError {
  override readonly name = 'MemoryStorageError';
  readonly fix: string | null;
  /** The SQLite or errno code behind the failure, when there was one (`SQLITE_FULL`, `EACCES`, …). */
  readonly code: string | null;
  constructor(message: string, options?: { cause?: unknown; fix?: string; code?: string | null }) {
    super(message, options);
    this.fix = options?.fix ?? null;
    this.code = options?.code ?? null;
  }
}

/** A model answer that breaks the strict LLM JSON contract (INTERFACES.md §2). */
export class MemoryContractError extends MemoryError {
  override readonly name = 'MemoryContractError';
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No memory item (or no unique one) matches the id or prefix given. */
export class MemoryNotFoundError extends MemoryError {
  override readonly name = 'MemoryNotFoundError';
  constructor(
    readonly memoryId: string,
    message?: string,
  ) {
    super(message ?? `No memory matches id '${memoryId}'`);
  }
}

/** A turn or job lease was lost: another owner recovered it, or a clear fenced it (M-9.1, M-9.2). */
export class MemoryLeaseError extends MemoryError {
  override readonly name = 'MemoryLeaseError';
}

/** A repair intent was offered to Memory, which serves only ordinary intents (M-1.1). */
export class MemoryIntentError extends MemoryError {
  override readonly name = 'MemoryIntentError';
  constructor(readonly intent: string) {
    super(`Intent '${intent}' never reads or writes Memory; only code_explain and general_chat do`);
  }
}

/**
 * `memory import` refused: the export file breaks the contract (foreign, damaged, tampered, newer), or the
 * target Memory is not empty. Nothing was changed; `reason` says why in words a person can act on.
 */
export class MemoryImportError extends MemoryError {
  override readonly name = 'MemoryImportError';
  constructor(readonly reason: string) {
    super(`cannot import: ${reason}`);
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
