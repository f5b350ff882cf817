import { z } from 'zod';
import { MemoryContractError } from '../../shared/errors.js';
import { MEMORY_KINDS } from '../types.js';

/**
 * The strict LLM JSON contracts of the Memory workers (INTERFACES.md §2). Unknown or missing keys, wrong
 * types or oversize strings make the whole answer invalid.
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

/**
 * Parses a model answer: exactly one JSON object (a single ```json fence around it is tolerated, since
 * many chat models add one), then the strict schema.
 */
export function parseModelAnswer<T>(schema: z.ZodType<T>, text: string, what: string): T {
  let body = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/u.exec(body);
  if (fenced) body = fenced[1]!.trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new MemoryContractError(`${what} answer is not one JSON object: ${(error as Error).message}`, [], { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new MemoryContractError(`${what} answer breaks the contract: ${issues.slice(0, 3).join('; ')}`, issues);
  }
  return parsed.data;
}
