import { MemoryError, MemorySchemaError, MemoryStorageError, describeError } from '../../shared/errors.js';

/** SQLite result codes that prove the file is not a sound database: the only ones that mean "degraded". */
const DAMAGE_CODES = ['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_FORMAT'];

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** True when SQLite itself read the file and found it is not a sound database (as opposed to not reaching it). */
export function isDamage(error: unknown): boolean {
  const code = codeOf(error);
  return code !== null && DAMAGE_CODES.some((c) => code === c || code.startsWith(`${c}_`));
}

/** A short reason for a damage verdict ("file is not a database"). */
export function damageReason(error: unknown): string {
  const code = codeOf(error);
  if (code === 'SQLITE_NOTADB') return 'file is not a database';
  if (code?.startsWith('SQLITE_CORRUPT')) return 'database disk image is malformed';
  return describeError(error);
}

/** What a person can do about a storage failure, by its code. */
function fixFor(code: string | null, place: string): string {
  const c = code ?? '';
  if (
    c === 'SQLITE_FULL' ||
    c === 'ENOSPC' ||
    c === 'EDQUOT' ||
    c === 'SQLITE_IOERR_SHMSIZE' ||
    c === 'SQLITE_IOERR_WRITE' ||
    c === 'SQLITE_IOERR_FSYNC' ||
    c === 'SQLITE_IOERR_TRUNCATE'
  ) {
    return `free disk space on the drive that holds ${place}, then run the command again; nothing was deleted`;
  }
  if (c.startsWith('SQLITE_BUSY') || c.startsWith('SQLITE_LOCKED') || c === 'EBUSY') {
    return 'another autopatch-j process is writing to this Memory; run the command again when it is done';
  }
  if (c.startsWith('SQLITE_READONLY') || c === 'EROFS') {
    return `make ${place} writable (a read-only folder or file system cannot hold Memory); nothing was deleted`;
  }
  if (c.startsWith('SQLITE_CANTOPEN') || c === 'SQLITE_PERM' || c === 'SQLITE_AUTH' || c === 'EACCES' || c === 'EPERM') {
    return `check that your user owns ${place} and may read and write it (ls -l); nothing was deleted`;
  }
  if (c === 'ELOOP') return `replace the symbolic link with a real folder or file; autopatch-j does not follow links in ${place}`;
  if (c === 'ENOTDIR' || c === 'EEXIST' || c === 'EISDIR') return `move the file that stands where ${place} should be`;
  if (c === 'EMFILE' || c === 'ENFILE' || c === 'SQLITE_NOMEM' || c === 'ENOMEM')
    return 'the system is out of resources; close other programs and run the command again';
  return `check the disk and the file system that hold ${place}; nothing was deleted`;
}

/**
 * Turns an error thrown by SQLite or the file system into a typed Memory error: damage found by SQLite
 * becomes MemorySchemaError (degraded); anything else — permissions, full disk, locks, I/O — becomes
 * MemoryStorageError with the cause and the fix. Memory errors pass through unchanged.
 */
export function typedStorageError(error: unknown, what: string, place: string): MemoryError {
  if (error instanceof MemoryError) return error;
  if (isDamage(error)) return new MemorySchemaError(damageReason(error), { cause: error });
  const code = codeOf(error);
  const fix = fixFor(code, place);
  return new MemoryStorageError(`${what}: ${describeError(error)} — ${fix}`, { cause: error, fix, code });
}
