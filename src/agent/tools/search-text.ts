import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { resolveInRepo } from '../../workspace/repo-paths.js';
import { sourceIndex } from '../../workspace/source-index.js';
import { defineTool } from './tool.js';

const MAX_SEARCH_FILE_BYTES = 1024 * 1024;

export const searchText = defineTool({
  name: 'search_text',
  description: 'Search repository files for a text (case-insensitive). Returns path:line: text for each hit.',
  schema: z.strictObject({
    query: z.string().min(1).max(200),
    path: z.string().default('.').describe('Folder to search in, relative to the repository root'),
    limit: z.number().int().min(1).max(500).default(50),
  }),
  run({ query, path, limit }, { repoRoot, workspace }) {
    resolveInRepo(repoRoot, path);
    const prefix = path === '.' || path === '' ? '' : `${path.replace(/^\.\//, '').replace(/\/+$/, '')}/`;
    const needle = query.toLowerCase();
    const hits: string[] = [];
    for (const rel of sourceIndex(workspace)) {
      if (!rel.startsWith(prefix)) continue;
      let text: string;
      try {
        const file = resolveInRepo(repoRoot, rel);
        if (statSync(file).size > MAX_SEARCH_FILE_BYTES) continue;
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      if (text.includes('\0') || !text.toLowerCase().includes(needle)) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length && hits.length < limit; i += 1) {
        if (lines[i]!.toLowerCase().includes(needle)) hits.push(`${rel}:${i + 1}: ${lines[i]!.trim().slice(0, 200)}`);
      }
      if (hits.length >= limit) break;
    }
    return hits.length > 0 ? hits.join('\n') : `No match for '${query}'.`;
  },
});
