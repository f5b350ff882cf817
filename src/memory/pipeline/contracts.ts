import { z } from 'zod';
import { MemoryContractError } from '../../shared/errors.js';
import { readModelJson, snakeCase } from '../../shared/model-json.js';
import { MEMORY_KINDS } from '../types.js';

/**
 * The LLM JSON contracts of the Memory workers (INTERFACES.md §2), read tolerant in form and strict in
 * meaning: `readExtractionAnswer` / `readConsolidationAnswer` take the JSON out of whatever the model wrapped
 * it in (`readModelJson`), normalize form (unknown keys dropped and noted, empty values for missing optional
 * fields, case-folded enums, numeric ids as strings, wrappers unwrapped), then hold each candidate or
 * operation to the strict schema on its own: one that breaks a limit is refused alone (reason `contract`).
 */

const kind = z.enum(MEMORY_KINDS as unknown as ['user_preference', 'project_decision', 'discussion_context']);

export const SourceAnswer = z.strictObject({
  turn_id: z.string().min(1).max(200),
  role: z.enum(['user', 'assistant']),
  quote: z.string().min(1).max(2000),
});

export const CandidateAnswer = z.strictObject({
  kind,
  title: z.string().min(1).max(160),
  content: z.string().min(1).max(4000),
  aliases: z.array(z.string().min(1).max(160)).max(12),
  sources: z.array(SourceAnswer).min(1).max(8),
});

export const ExtractionAnswer = z.strictObject({
  thread_compaction: z.string().max(4000),
  candidates: z.array(CandidateAnswer).max(32),
});

export const OperationAnswer = z.strictObject({
  operation: z.enum(['create', 'revise', 'supersede', 'reject']),
  candidate_ids: z.array(z.string().min(1).max(200)).min(1).max(32),
  target_id: z.string().min(1).max(200).nullable(),
  title: z.string().max(160),
  content: z.string().max(4000),
  synopsis: z.string().max(400),
  aliases: z.array(z.string().min(1).max(160)).max(16),
  keywords: z.array(z.string().min(1).max(160)).max(24),
});

export const ConsolidationAnswer = z.strictObject({
  operations: z.array(OperationAnswer).max(32),
});

export type SourceAnswer = z.infer<typeof SourceAnswer>;
export type CandidateAnswer = z.infer<typeof CandidateAnswer>;
export type ExtractionAnswer = z.infer<typeof ExtractionAnswer>;
export type OperationAnswer = z.infer<typeof OperationAnswer>;
export type ConsolidationAnswer = z.infer<typeof ConsolidationAnswer>;

/** Extraction request payload (INTERFACES.md §2.1). RAW turn text inside it is untrusted data. */
export interface ExtractionPayload {
  thread_id: string;
  previous_compaction: string;
  adjacent_previous_turn: { turn_id: string; sequence: number; user: string; assistant: string } | null;
  turns: { turn_id: string; sequence: number; intent: string; state: string; user: string; assistant: string }[];
}

/** Consolidation request payload (INTERFACES.md §2.2). */
export interface ConsolidationPayload {
  thread_id: string;
  candidates: {
    candidate_id: string;
    kind: string;
    title: string;
    content: string;
    aliases: string[];
    sources: { turn_id: string; role: string; quote: string }[];
  }[];
  active_items: {
    item_id: string;
    kind: string;
    title: string;
    content: string;
    synopsis: string;
    aliases: string[];
    keywords: string[];
  }[];
}

/** Limits of an extraction answer (INTERFACES.md §2.1). */
export const MAX_CANDIDATES = 32;
export const MAX_COMPACTION = 4000;
/** Limits of a consolidation answer (INTERFACES.md §2.2). */
export const MAX_OPERATIONS = 32;

/** A candidate or operation refused on its own for breaking the contract. */
export interface ContractRefusal {
  title: string;
  kind: string;
  detail: string;
  /** For operations: the candidates it named, which are then rejected. */
  candidateIds?: string[];
}

export interface ExtractionRead {
  compaction: string;
  candidates: CandidateAnswer[];
  refused: ContractRefusal[];
  /** Form repairs and dropped keys, for the job diagnostics. */
  repairs: string[];
}

export interface ConsolidationRead {
  operations: OperationAnswer[];
  refused: ContractRefusal[];
  repairs: string[];
}

const KIND_SYNONYMS: Record<string, string> = {
  preference: 'user_preference',
  user_preferences: 'user_preference',
  decision: 'project_decision',
  project_decisions: 'project_decision',
  context: 'discussion_context',
  discussion: 'discussion_context',
};

const OPERATION_SYNONYMS: Record<string, string> = {
  add: 'create',
  new: 'create',
  insert: 'create',
  update: 'revise',
  refine: 'revise',
  replace: 'supersede',
  skip: 'reject',
  ignore: 'reject',
  discard: 'reject',
  drop: 'reject',
};

const EXTRACTION_KEYS = ['thread_compaction', 'candidates'] as const;
const CONSOLIDATION_KEYS = ['operations'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads an extraction answer (INTERFACES.md §2.1). Throws MemoryContractError only when no answer object can be read. */
export function readExtractionAnswer(text: string, finishReason?: string | null): ExtractionRead {
  const read = readModelJson(text, { finishReason, keys: [...EXTRACTION_KEYS, 'compaction', 'summary'] });
  const repairs = [...read.repairs];
  const top = unwrap(read.value, [...EXTRACTION_KEYS, 'compaction', 'summary', 'thread_summary', 'memories'], 'candidates', repairs);
  const known = renameKeys(top, {
    compaction: 'thread_compaction',
    summary: 'thread_compaction',
    thread_summary: 'thread_compaction',
    memories: 'candidates',
  });
  noteUnknown(known, EXTRACTION_KEYS, 'answer', repairs);
  let compaction = typeof known.thread_compaction === 'string' ? known.thread_compaction : '';
  if (compaction.length > MAX_COMPACTION) {
    compaction = cutAtSentence(compaction, MAX_COMPACTION);
    repairs.push('compaction_cut');
  }
  const list =
    known.candidates === undefined || known.candidates === null
      ? []
      : Array.isArray(known.candidates)
        ? known.candidates
        : [known.candidates];
  if (!Array.isArray(known.candidates) && known.candidates !== undefined && known.candidates !== null)
    repairs.push('candidates_not_a_list');
  const candidates: CandidateAnswer[] = [];
  const refused: ContractRefusal[] = [];
  list.forEach((raw, index) => {
    const normalized = normalizeCandidate(raw, repairs);
    const title = isObject(normalized) && typeof normalized.title === 'string' ? normalized.title : `candidate ${index}`;
    const kindText = isObject(normalized) && typeof normalized.kind === 'string' ? normalized.kind : 'unknown';
    if (index >= MAX_CANDIDATES) {
      refused.push({ title, kind: kindText, detail: `more than ${MAX_CANDIDATES} candidates` });
      return;
    }
    const parsed = CandidateAnswer.safeParse(normalized);
    if (parsed.success) candidates.push(parsed.data);
    else refused.push({ title, kind: kindText, detail: firstIssue(parsed.error) });
  });
  return { compaction, candidates, refused, repairs: unique(repairs) };
}

/** Reads a consolidation answer (INTERFACES.md §2.2). Throws MemoryContractError only when no answer object can be read. */
export function readConsolidationAnswer(text: string, finishReason?: string | null): ConsolidationRead {
  const read = readModelJson(text, { finishReason, keys: CONSOLIDATION_KEYS });
  const repairs = [...read.repairs];
  const top = renameKeys(unwrap(read.value, [...CONSOLIDATION_KEYS, 'ops', 'actions'], 'operations', repairs), {
    ops: 'operations',
    actions: 'operations',
  });
  noteUnknown(top, CONSOLIDATION_KEYS, 'answer', repairs);
  const list = Array.isArray(top.operations) ? top.operations : isObject(top.operations) ? [top.operations] : [];
  if (top.operations !== undefined && !Array.isArray(top.operations)) repairs.push('operations_not_a_list');
  const operations: OperationAnswer[] = [];
  const refused: ContractRefusal[] = [];
  list.forEach((raw, index) => {
    const normalized = normalizeOperation(raw, repairs);
    const candidateIds =
      isObject(normalized) && Array.isArray(normalized.candidate_ids)
        ? normalized.candidate_ids.filter((id): id is string => typeof id === 'string')
        : [];
    const title =
      isObject(normalized) && typeof normalized.title === 'string' && normalized.title.length > 0 ? normalized.title : `operation ${index}`;
    const kind = isObject(normalized) && typeof normalized.operation === 'string' ? normalized.operation : 'unknown';
    if (index >= MAX_OPERATIONS) {
      refused.push({ title, kind, detail: `more than ${MAX_OPERATIONS} operations`, candidateIds });
      return;
    }
    const parsed = OperationAnswer.safeParse(normalized);
    if (parsed.success) operations.push(parsed.data);
    else refused.push({ title, kind, detail: firstIssue(parsed.error), candidateIds });
  });
  return { operations, refused, repairs: unique(repairs) };
}

/** A bare array becomes `{[listKey]: array}`; a wrapper object ({"result": {...}}) is opened. */
function unwrap(value: unknown, keys: readonly string[], listKey: string, repairs: string[]): Json {
  let current = value;
  for (let depth = 0; depth < 3; depth += 1) {
    if (Array.isArray(current)) {
      repairs.push('bare_array');
      return { [listKey]: current };
    }
    if (!isObject(current)) break;
    const own = Object.keys(current).map(snakeCase);
    if (own.some((k) => keys.includes(k))) return snakeKeys(current);
    const inner = Object.values(current).filter((v) => isObject(v) || Array.isArray(v));
    if (inner.length !== 1) break;
    repairs.push('wrapper');
    current = inner[0];
  }
  if (isObject(current)) return snakeKeys(current);
  throw new MemoryContractError('the answer is not a JSON object of the contract', ['not_an_object']);
}

function snakeKeys(object: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) out[snakeCase(key)] = value;
  return out;
}

function renameKeys(object: Json, renames: Record<string, string>): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    const target = renames[key] ?? key;
    if (!(target in out) || out[target] === undefined || out[target] === null) out[target] = value;
  }
  return out;
}

function noteUnknown(object: Json, keys: readonly string[], where: string, repairs: string[]): void {
  for (const key of Object.keys(object)) if (!keys.includes(key)) repairs.push(`dropped_key:${where}.${key}`);
}

/** Strings from a list-ish value: null/missing → [], one string → [it], numbers → strings, blanks dropped. */
function stringList(value: unknown): unknown {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string' || typeof v === 'number')) return value;
  return list.map((v) => String(v).trim()).filter((v) => v.length > 0);
}

const idText = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : value;
const text = (value: unknown): unknown => (value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : value);
const enumText = (value: unknown, synonyms: Record<string, string>): unknown => {
  if (typeof value !== 'string') return value;
  const folded = snakeCase(value.trim());
  return synonyms[folded] ?? folded;
};

const CANDIDATE_KEYS = ['kind', 'title', 'content', 'aliases', 'sources'];
const SOURCE_KEYS = ['turn_id', 'role', 'quote'];
const OPERATION_KEYS = ['operation', 'candidate_ids', 'target_id', 'title', 'content', 'synopsis', 'aliases', 'keywords'];

function normalizeCandidate(raw: unknown, repairs: string[]): unknown {
  if (!isObject(raw)) return raw;
  const c = renameKeys(snakeKeys(raw), { type: 'kind', source: 'sources', evidence: 'sources', quotes: 'sources', alias: 'aliases' });
  noteUnknown(c, CANDIDATE_KEYS, 'candidate', repairs);
  const sources = c.sources === undefined || c.sources === null ? [] : Array.isArray(c.sources) ? c.sources : [c.sources];
  return {
    kind: enumText(c.kind, KIND_SYNONYMS),
    title: text(c.title),
    content: text(c.content),
    aliases: stringList(c.aliases),
    sources: sources.map((s) => {
      if (!isObject(s)) return s;
      const source = renameKeys(snakeKeys(s), { turn: 'turn_id', id: 'turn_id', speaker: 'role', text: 'quote' });
      noteUnknown(source, SOURCE_KEYS, 'source', repairs);
      return { turn_id: idText(source.turn_id), role: enumText(source.role, {}), quote: text(source.quote) };
    }),
  };
}

function normalizeOperation(raw: unknown, repairs: string[]): unknown {
  if (!isObject(raw)) return raw;
  const o = renameKeys(snakeKeys(raw), {
    op: 'operation',
    action: 'operation',
    type: 'operation',
    candidate_id: 'candidate_ids',
    candidates: 'candidate_ids',
    target: 'target_id',
    item_id: 'target_id',
    target_item_id: 'target_id',
    alias: 'aliases',
    keyword: 'keywords',
  });
  noteUnknown(o, OPERATION_KEYS, 'operation', repairs);
  const operation = enumText(o.operation, OPERATION_SYNONYMS);
  let target = idText(o.target_id);
  if (target === undefined || target === '' || (typeof target === 'string' && /^(null|none)$/iu.test(target))) target = null;
  // A reject names no target; one named anyway changes nothing (the candidates are rejected either way).
  if (operation === 'reject') target = null;
  const ids =
    o.candidate_ids === undefined || o.candidate_ids === null ? [] : Array.isArray(o.candidate_ids) ? o.candidate_ids : [o.candidate_ids];
  return {
    operation,
    candidate_ids: ids.map(idText),
    target_id: target,
    title: text(o.title),
    content: text(o.content),
    synopsis: text(o.synopsis),
    aliases: stringList(o.aliases),
    keywords: stringList(o.keywords),
  };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'breaks the contract';
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Cuts text to at most `max` characters at the last sentence end before it (or hard, when there is none). */
export function cutAtSentence(value: string, max: number): string {
  const head = value.slice(0, max);
  let cut = -1;
  for (const match of head.matchAll(/[。！？!?]|\.(?=\s)|\n/gu)) cut = match.index + match[0].length;
  if (cut >= max / 2) return head.slice(0, cut).trimEnd();
  return head.replace(/[\uD800-\uDBFF]$/u, '');
}
