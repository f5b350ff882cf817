import { nodeCrypto } from './crypto.js';

// Crockford base32 without I, L, O, U: easy to read aloud and to type as a prefix.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Random base32 text of the given length. */
export function randomToken(length: number): string {
  const bytes = nodeCrypto().randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[bytes[i]! & 31];
  return out;
}

export type IdKind = 'thread' | 'turn' | 'job' | 'candidate' | 'item' | 'worker';

const PREFIX: Record<IdKind, string> = {
  thread: 't-',
  turn: 'turn-',
  job: 'job-',
  candidate: 'cand-',
  item: 'm',
  worker: 'w-',
};

const LENGTH: Record<IdKind, number> = {
  thread: 12,
  turn: 16,
  job: 16,
  candidate: 16,
  // Memory ids are shown to people and typed back as prefixes: 'm' + 8 characters (INTERFACES.md §1).
  item: 8,
  worker: 10,
};

/** Generates ids; injectable so tests can make them deterministic. */
export type IdGenerator = (kind: IdKind) => string;

/** Base32 of the current time in ms, 9 characters: ids that sort by creation time. */
function timeToken(): string {
  let ms = Date.now();
  let out = '';
  for (let i = 0; i < 9; i += 1) {
    out = ALPHABET[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

// Ids people never type (turns, jobs, candidates) start with the time, so new rows land at the end of
// their B-trees instead of dirtying random pages. Memory ids stay fully random: a short typed prefix
// must tell them apart.
const TIME_ORDERED: ReadonlySet<IdKind> = new Set<IdKind>(['turn', 'job', 'candidate']);

export const randomIds: IdGenerator = (kind) =>
  TIME_ORDERED.has(kind) ? PREFIX[kind] + timeToken() + randomToken(LENGTH[kind] - 9) : PREFIX[kind] + randomToken(LENGTH[kind]);

/**
 * The short name people type for a held candidate (M-5.7): `s` (a suggestion, `job…#sN`) or `r` (a refusal,
 * `job…#N`) and 5 characters of a hash of its id (FNV-1a, 32 bits). Shown beside the full id and resolved
 * against the held candidates, so a rare collision is reported as ambiguous, never guessed.
 */
export function shortCandidateId(candidateId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < candidateId.length; i += 1) {
    hash ^= candidateId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  let out = '';
  for (let i = 0; i < 5; i += 1) {
    out += ALPHABET[hash & 31];
    hash >>>= 5;
  }
  return `${/#s\d+$/u.test(candidateId) ? 's' : 'r'}${out}`;
}
