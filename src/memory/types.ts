import type { ChatMessage, LlmClient } from '../llm/types.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/ids.js';

/** Every intent the agent routes to. */
export type Intent = 'code_explain' | 'general_chat' | 'code_audit' | 'patch_explain' | 'patch_revise';
/** The intents Memory serves (M-1.1). */
export type OrdinaryIntent = 'code_explain' | 'general_chat';
export type RepairIntent = Exclude<Intent, OrdinaryIntent>;
export type MemoryKind = 'user_preference' | 'project_decision' | 'discussion_context';

export const INTENTS: readonly Intent[] = ['code_explain', 'general_chat', 'code_audit', 'patch_explain', 'patch_revise'];
export const ORDINARY_INTENTS: readonly OrdinaryIntent[] = ['code_explain', 'general_chat'];
export const MEMORY_KINDS: readonly MemoryKind[] = ['user_preference', 'project_decision', 'discussion_context'];

export function isOrdinaryIntent(intent: string): intent is OrdinaryIntent {
  return (ORDINARY_INTENTS as readonly string[]).includes(intent);
}

export type ThreadStatus = 'active' | 'archived';
export type TurnState = 'open' | 'completed' | 'failed' | 'interrupted';
export type JobKind = 'extraction' | 'consolidation';
export type JobStatus = 'pending' | 'leased' | 'retry_wait' | 'succeeded' | 'succeeded_no_output';
export type CandidateStatus = 'pending' | 'consolidated' | 'rejected' | 'suppressed';
export type ItemStatus = 'active' | 'superseded' | 'forgotten';
export type SourceRole = 'user' | 'assistant';

/** Binds one ordinary request to the thread of its admission (M-3.3). */
export interface TurnHandle {
  readonly turnId: string;
  readonly threadId: string;
  readonly sequence: number;
}

export interface ThreadRecord {
  id: string;
  status: ThreadStatus;
  compaction: string;
  compactionSequence: number;
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
}

export interface TurnRecord {
  id: string;
  threadId: string;
  sequence: number;
  intent: OrdinaryIntent;
  userText: string;
  assistantText: string | null;
  state: TurnState;
  scopePaths: string[];
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  failure: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface JobRecord {
  id: string;
  kind: JobKind;
  status: JobStatus;
  threadId: string;
  turnId: string | null;
  parentJobId: string | null;
  generation: number;
  attemptCount: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  availableAt: number;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface SourceRecord {
  turnId: string;
  role: SourceRole;
  quote: string;
}

export interface CandidateRecord {
  id: string;
  threadId: string;
  kind: MemoryKind;
  title: string;
  content: string;
  aliases: string[];
  nonFactual: boolean;
  status: CandidateStatus;
  sources: SourceRecord[];
}

export interface MemoryItemSummary {
  id: string;
  kind: MemoryKind;
  status: ItemStatus;
  title: string;
  synopsis: string;
  threadId: string | null;
  revision: number;
  updatedAt: number;
}

export interface ProvenanceSource {
  turnId: string;
  role: SourceRole;
  quote: string;
  /** A bounded window of the RAW turn text around the verified quote. */
  excerpt: string;
  sequence: number | null;
  threadId: string | null;
  turnCreatedAt: number | null;
}

export interface MemoryRevision {
  revision: number;
  status: ItemStatus;
  title: string;
  content: string;
  createdAt: number;
}

export interface MemoryDetail {
  id: string;
  kind: MemoryKind;
  status: ItemStatus;
  title: string;
  content: string;
  synopsis: string;
  aliases: string[];
  keywords: string[];
  /** Discussion context is never a fact about the code (M-5.3). */
  nonFactual: boolean;
  threadId: string | null;
  revision: number;
  createdAt: number;
  updatedAt: number;
  supersedes: string | null;
  supersededBy: string | null;
  revisions: MemoryRevision[];
  sources: ProvenanceSource[];
}

/** One revision of a derived memory (`memory_items`) as the store gives it out: what a detail shows of it, and its links. */
export type ItemRecord = Omit<MemoryDetail, 'supersedes' | 'supersededBy' | 'revisions' | 'sources'> & {
  isCurrent: boolean;
  supersedesId: string | null;
  supersededById: string | null;
  consolidationJobId: string;
};

export type MatchClass = 'exact' | 'prefix' | 'substring' | 'content';

export interface SearchHit {
  id: string;
  kind: MemoryKind;
  title: string;
  synopsis: string;
  match: MatchClass;
}

/** An item the routing context of a request shows (`MemoryManager.routingItems`). */
export interface RoutedItem {
  id: string;
  kind: MemoryKind;
  title: string;
}

/** Unfinished jobs by state (`MemoryManager.openJobs()`). */
export type OpenJobCounts = Pick<JobCounts, 'pending' | 'leased' | 'retryWait' | 'failed'>;

/** What `MemoryManager.health()` knows without reading the database. */
export interface MemoryHealth {
  health: 'healthy' | 'degraded' | 'closed';
  degradedReason: string | null;
}

export interface JobCounts {
  pending: number;
  leased: number;
  retryWait: number;
  /** Terminal until `retry`: the model's answers were unusable 6 times in a row (M-9.4a). */
  failed: number;
  succeeded: number;
  succeededNoOutput: number;
}

/** A failed job, with what went wrong in a few words. */
export interface FailedJob {
  id: string;
  kind: JobKind;
  attempts: number;
  reason: string;
}

/** What `retry` put back in the queue (M-9.4a). */
export interface RetryResult {
  jobIds: string[];
}

export interface FilteredCounts {
  /** Candidates the program refused, in all. */
  total: number;
  /** Refusals by reason code. */
  byReason: Record<string, number>;
}

/** A candidate the program refused (INTERFACES.md §1): why "it did not remember". */
export interface RefusedCandidate {
  candidateId: string;
  kind: MemoryKind;
  title: string;
  /** The user quote it rested on (else its first quote), clipped. */
  quote: string;
  /** The refusal reason code (`no_speech_act`, `temporary`, `third_party`, …). */
  reason: string;
  turnId: string;
  /** Epoch milliseconds of the extraction that refused it. */
  at: number;
  /** M-5.7: true when the refusal is a reading of the words that `keep` may overrule; false for provenance. */
  keepable: boolean;
}

/** A candidate the gate held for the user (M-5.7): not a memory, never in routing or search. */
export interface SuggestedCandidate {
  candidateId: string;
  kind: MemoryKind;
  title: string;
  content: string;
  /** The user quote it rests on (else its first quote), clipped. */
  quote: string;
  /** Why it was held (`polite_request`, `weakened`, `third_party`, …). */
  reason: string;
  turnId: string;
  /** Epoch milliseconds of the extraction that held it. */
  at: number;
}

/**
 * Something the background Memory did (M-11.2), for the notices shown before the next prompt: an item
 * created, revised or made by a supersede (`replaced` names the item it replaced), or a candidate held
 * as a suggestion (its `id` is the candidate id `keep` and `dismiss` take).
 */
export interface MemoryChange {
  /** Epoch milliseconds of the commit. */
  at: number;
  action: 'created' | 'revised' | 'superseded' | 'suggested';
  id: string;
  kind: MemoryKind;
  title: string;
  /** The user's words it rests on (else its first quote), clipped; '' when none is stored. */
  quote: string;
  /** For `superseded`: the item it replaced. */
  replaced?: { id: string; title: string };
}

/** What `remember` did with the user's words (M-5.7). */
export interface RememberResult {
  /** The ordinary turn that records the act: its RAW text is what the user typed. */
  turnId: string;
  kind: 'user_preference' | 'project_decision';
  /**
   * `remembered`: an item holds the words (a new one, or an existing one they repeat); `queued`: the
   * turn's extraction or consolidation waits in the queue (no model, or it failed and will be retried);
   * `refused`: the checks refused it (`reason` says why).
   */
  outcome: 'remembered' | 'queued' | 'refused';
  memory: RoutedItem | null;
  reason: string | null;
}

/** What `keep` did with a held candidate (M-5.7). */
export interface KeepResult {
  candidateId: string;
  /** The ordinary turn that records the user's act (`/memory keep ID`, as typed). */
  turnId: string | null;
  kind: MemoryKind;
  /** As for `remember`: an item holds it, it waits for consolidation, or consolidation refused it. */
  outcome: 'remembered' | 'queued' | 'refused';
  memory: RoutedItem | null;
  reason: string | null;
  /** True when it had been kept before: nothing was written this time. */
  alreadyKept: boolean;
}

/** What the memories of an answer were (`/why`, `ask --json` `memoriesUsed`). */
export interface MemoriesUsed {
  /** What the routing context gave the model. */
  routing: RoutedItem[];
  /** Each `memory_search` the model made, with its hits. */
  searched: { query: string; hits: { id: string; kind: MemoryKind; title: string; match: MatchClass }[] }[];
  /** Each memory the model read with `memory_read`. */
  read: RoutedItem[];
}

export interface MemoryStatus {
  health: 'healthy' | 'degraded';
  degradedReason: string | null;
  dbPath: string;
  schemaVersion: number | null;
  generation: number | null;
  activeThreadId: string | null;
  turns: { open: number; completed: number; failed: number; interrupted: number };
  jobs: JobCounts;
  items: Record<MemoryKind, number>;
  filteredCandidates: FilteredCounts;
  /** M-5.7: candidates held for the user's decision in the active thread (not kept, not dismissed). */
  suggestions: number;
  /** Failed jobs (newest first, at most 10), the oldest unfinished job and the most attempts any has taken. */
  unresolved: { failed: FailedJob[]; oldestCreatedAt: number | null; maxAttempts: number };
  /** The last error of the background scheduler itself (not of a job), while it keeps failing; null when fine. */
  backgroundError: string | null;
  lastError: string | null;
  lastSucceededAt: number | null;
  createdAt: number | null;
  /** Problems worth showing that are not a degraded schema (a legacy file that could not be deleted …). */
  warnings: string[];
}

export interface ForgetResult {
  id: string;
  title: string;
  kind: MemoryKind;
  suppressedCandidates: number;
  /** Thread summaries emptied because they already covered the forgotten item's source turns. */
  compactionsReset: number;
  /** Always true: forgetting never deletes the RAW turns (M-6.3). */
  rawTurnsKept: true;
}

export interface NewThreadResult {
  archivedThreadId: string;
  threadId: string;
  drain: DrainResult;
}

export interface ClearResult {
  generation: number;
  threadId: string;
  /** True when the database file was replaced by a new one because the schema itself was broken. */
  recreated: boolean;
  createdAt: number;
  /** Where the damaged file was moved (`memory.db.damaged-<timestamp>`) when it was replaced; never deleted. */
  movedAside: string | null;
}

export interface ExportResult {
  path: string;
  turns: number;
  items: number;
  /** True when SQLite could not read the database and the export holds its raw bytes instead. */
  rawBytesOnly: boolean;
}

/** What `import` restored (INTERFACES.md §4: `memory import FILE`), counted from the restored rows. */
export interface ImportResult {
  /** The export file, read and never changed. */
  file: string;
  /** When the export was written, as it says. */
  exportedAt: string;
  /** The export was taken from a degraded Memory; every row still passed every check. */
  fromDegraded: boolean;
  /** The new generation: above every generation of the target and of the export (M-10.3's rule). */
  generation: number;
  activeThreadId: string;
  threads: number;
  turns: number;
  jobs: number;
  candidates: number;
  sources: number;
  /** Item revisions (rows), every status. */
  items: number;
}

export interface JobOutcome {
  jobIds: string[];
  kind: JobKind;
  outcome: 'succeeded' | 'succeeded_no_output' | 'retry' | 'failed' | 'fenced';
  error?: string;
  nextRetryAt?: number;
  /** The batch was split after an unusable answer; its first half is due again at once (M-9.4a). */
  split?: boolean;
}

export interface ProcessResult {
  outcomes: JobOutcome[];
}

export interface DrainWarning {
  jobId: string;
  kind: JobKind;
  message: string;
  nextRetryAt: number | null;
}

export interface DrainResult {
  attempted: number;
  succeeded: number;
  retried: number;
  /** Jobs that became failed in this pass (terminal until `retry`, M-9.4a). */
  failed: number;
  warnings: DrainWarning[];
  /** Jobs of the snapshot the pass did not reach before its time budget ran out; they stay queued. */
  notTried?: number;
  /** True when the pass stopped at its time budget (issue "Safe hands", item 4). */
  budgetSpent?: boolean;
}

export type { ChatMessage };

/** A quote the program found in the RAW text of the cited turn and role (M-5.3, M-5.5). */
export interface VerifiedSource {
  turnId: string;
  role: SourceRole;
  quote: string;
  /** Offset of the quote in the RAW text, in characters (code points), as SQLite counts them. */
  start: number;
}

/** A Stage 1 candidate that passed validation, ready to be stored. */
export interface ValidCandidate {
  kind: MemoryKind;
  title: string;
  content: string;
  aliases: string[];
  nonFactual: boolean;
  threadId: string;
  sources: VerifiedSource[];
}

/**
 * M-10.2 bounded (issue "Safe hands", item 4): the exit pass claims new work for at most this long; a call in
 * flight at that moment still finishes (within its request timeout), and what was not reached stays queued.
 */
export const EXIT_PASS_BUDGET_MS = 10_000;

/** How a MemoryManager is opened (INTERFACES.md §1). */
export interface MemoryManagerOptions {
  /** The project; the database is `<repoRoot>/.autopatch-j/memory.db`. */
  repoRoot: string;
  /** Without a model, jobs stay queued. */
  llm?: LlmClient;
  /** Epoch milliseconds; tests move time with it. */
  now?: Clock;
  /** Owner name written into leases. */
  workerId?: string;
  /** Id generator; tests make ids deterministic with it. */
  ids?: IdGenerator;
  /** Lease of an open turn; a running manager heartbeats it (M-9.1). Default 60 s. */
  turnLeaseMs?: number;
  /** Lease of a claimed job; heartbeated while its model call runs. Default 180 s. */
  jobLeaseMs?: number;
  /** Timeout of one worker model request (M-10.2: 60 s). */
  requestTimeoutMs?: number;
  /** How long a write waits for another process's lock (SQLite busy_timeout). Default 10 s. */
  busyTimeoutMs?: number;
}
