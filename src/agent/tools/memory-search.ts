import { z } from 'zod';
import { defineTool } from './tool.js';

export const memorySearch = defineTool({
  name: 'memory_search',
  description:
    "Search the project memory (the user's explicit preferences, confirmed project decisions, and this discussion's context) " +
    'by keywords or a short question, in Chinese or English (the words are ranked; a memory said in one language is ' +
    'found in the other through its aliases). Returns at most 5 {id, kind, title, synopsis, match}, best first. ' +
    'Memory is not source evidence.',
  schema: z.strictObject({ query: z.string().min(1).max(256) }),
  run({ query }, { memory }) {
    if (!memory) return 'Error: memory is not available in this flow.';
    const hits = memory.manager.search(memory.handle, query);
    memory.used?.searched.push({ query, hits: hits.map(({ id, kind, title, match }) => ({ id, kind, title, match })) });
    return hits.length === 0 ? '[]' : JSON.stringify(hits, null, 1);
  },
});
