import { MemoryNotFoundError, MemoryProvenanceError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import { dismissHeldEntry, findHeldEntry, resolveHeldId } from './held.js';

/**
 * M-5.7 `dismiss`: drops a suggestion (or a keepable refusal) from the lists; the RAW turns stay. Idempotent.
 * `candidateId` is the full id or its short name.
 */
export function dismissHeld(conn: Connection, candidateId: string): void {
  const id = conn.read(() => resolveHeldId(conn, candidateId));
  const entry = conn.read(() => findHeldEntry(conn, id));
  if (!entry) throw new MemoryNotFoundError(candidateId, `No suggestion or refusal '${candidateId}' to dismiss`);
  if (entry.state === 'kept') throw new MemoryNotFoundError(candidateId, `${id} was kept; /memory forget removes the memory`);
  if (!entry.keepable)
    throw new MemoryProvenanceError(id, entry.reason, `${id} is a refusal for its provenance: nothing is held to dismiss`);
  if (entry.state === null) dismissHeldEntry(conn, entry);
}
