import { z } from 'zod';
import { MEMORY_KINDS } from '../../memory/types.js';

/** Shapes shared by the tool outputs and resources. */
export const MemoryKindSchema = z.enum(MEMORY_KINDS as [string, ...string[]]);

export const SearchHitSchema = z.object({
  id: z.string(),
  kind: MemoryKindSchema,
  title: z.string(),
  synopsis: z.string(),
  match: z.enum(['exact', 'prefix', 'substring', 'content']),
});

export const ReadViewSchema = z.object({
  id: z.string(),
  kind: MemoryKindSchema,
  title: z.string(),
  content: z.string(),
  non_factual: z.boolean(),
  revision: z.number(),
  sources: z.array(z.object({ turn_id: z.string(), role: z.enum(['user', 'assistant']), excerpt: z.string() })),
});

/** Epoch milliseconds as ISO-8601, or null. */
export function isoTime(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}
