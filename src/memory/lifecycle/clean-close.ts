import { closeSync, constants, fchmodSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

/**
 * Start-up without the wait (M-2.2 kept, issue: large databases). The physical checks of the bootstrap
 * invariant (`quick_check`, `foreign_key_check`) read every page: ~1.4 s at 100k items. They are skipped when
 * the file is provably the one a previous session verified and closed cleanly: after the last connection
 * closes (SQLite has checkpointed and removed the WAL) a stamp records the file's inode, size and mtime; at
 * the next open, no WAL and the same three values mean nothing has touched the file since. Any write, an
 * outside tool, a crash (the WAL stays behind) or a session still open elsewhere (its WAL exists) means the
 * full check runs. The catalog, meta and active-thread checks always run.
 */

const STAMP_SUFFIX = '-verified';

function stampPath(dbPath: string): string {
  return `${dbPath}${STAMP_SUFFIX}`;
}

function identity(dbPath: string): string | null {
  // A WAL (a session open, or a crash) or a rollback journal (hot after a crash) means the file is not at rest.
  for (const side of ['-wal', '-journal']) if (statSync(`${dbPath}${side}`, { throwIfNoEntry: false })) return null;
  const db = statSync(dbPath, { throwIfNoEntry: false });
  return db ? `v1 ${db.ino} ${db.size} ${Math.trunc(db.mtimeMs)}` : null;
}

/** True when the database is unchanged since a verified clean close, so the physical checks may be skipped. */
export function closedCleanSinceVerified(dbPath: string): boolean {
  try {
    const current = identity(dbPath);
    if (current === null) return false;
    const fd = openSync(stampPath(dbPath), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return readFileSync(fd, 'utf8') === current;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Forgets the stamp: this session may change the file. */
export function forgetCleanClose(dbPath: string): void {
  try {
    rmSync(stampPath(dbPath), { force: true });
  } catch {
    // Without the stamp removed the next open still compares inode, size and mtime.
  }
}

/** After a verified session's last connection closed: stamp the file as it is now (nothing when a WAL is left). */
export function recordCleanClose(dbPath: string): void {
  const current = identity(dbPath);
  if (current === null) return;
  let fd: number | null = null;
  try {
    fd = openSync(stampPath(dbPath), constants.O_CREAT | constants.O_TRUNC | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
    fchmodSync(fd, 0o600);
    writeSync(fd, current);
  } catch {
    // No stamp: the next open runs the full check, which is always safe.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
