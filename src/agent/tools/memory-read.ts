import { z } from 'zod';
import type { MemoryDetail } from '../../memory/types.js';
import { defineTool } from './tool.js';

/** What `memory_read` shows a model: bounded detail, the non-factual flag and provenance excerpts (M-7.6). */
export function memoryReadView(detail: MemoryDetail) {
  return {
    id: detail.id,
    kind: detail.kind,
    title: detail.title,
    content: detail.content,
    non_factual: detail.nonFactual,
    revision: detail.revision,
    sources: detail.sources.map((s) => ({ turn_id: s.turnId, role: s.role, excerpt: s.excerpt })),
  };
}

export const memoryRead = defineTool({
  name: 'memory_read',
  description: "Read one memory by id: its content, whether it is non-factual context, and excerpts of the user's words it comes from.",
  schema: z.strictObject({ memory_id: z.string().min(4).max(64) }),
  run({ memory_id }, { memory }) {
    if (!memory) return 'Error: memory is not available in this flow.';
    const detail = memory.manager.read(memory.handle, memory_id);
    if (memory.used && !memory.used.read.some((r) => r.id === detail.id))
      memory.used.read.push({ id: detail.id, kind: detail.kind, title: detail.title });
    return JSON.stringify(memoryReadView(detail), null, 1);
  },
});
