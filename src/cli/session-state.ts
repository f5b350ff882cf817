import type { MemoriesUsed } from '../memory/types.js';
import type { MemoryNotices } from './notices.js';

/** The last answer of a session, for `/why` (kept for the session only: no table, M-11 `/why`). */
export interface LastAnswer {
  turnId: string | null;
  /** Null for a repair flow, which never reads Memory (M-1.1). */
  memoriesUsed: MemoriesUsed | null;
}

/** What a session keeps between its inputs. */
export interface SessionState {
  notices: MemoryNotices;
  lastAnswer: LastAnswer | null;
}
