import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { resolveInRepo } from '../../workspace/repo-paths.js';
import { defineTool } from './tool.js';

const MAX_FILE_BYTES = 2 * 1024 * 1024;

export const readFile = defineTool({
  name: 'read_file',
  description: 'Read a repository file, or a line range of it, with line numbers. Always read the live source: it is the evidence.',
  schema: z.strictObject({
    path: z.string().min(1).describe('File path relative to the repository root'),
    startLine: z.number().int().min(1).optional(),
    endLine: z.number().int().min(1).optional(),
  }),
  run({ path, startLine, endLine }, { repoRoot, workspace }) {
    const file = resolveInRepo(repoRoot, path);
    const stat = statSync(file);
    if (!stat.isFile()) return `Error: ${path} is not a file.`;
    if (stat.size > MAX_FILE_BYTES) return `Error: ${path} is ${stat.size} bytes; read a line range of a smaller file.`;
    const key = `read:${file}:${stat.mtimeMs}`;
    let text = workspace.requestCache.get(key);
    if (text === undefined) {
      text = readFileSync(file, 'utf8');
      workspace.requestCache.set(key, text);
    }
    if (text.includes('\0')) return `Error: ${path} looks like a binary file.`;
    const lines = text.split('\n');
    const from = Math.max(1, startLine ?? 1);
    const to = Math.min(lines.length, endLine ?? lines.length);
    if (from > to) return `Error: ${path} has ${lines.length} lines; the range ${from}-${to} is empty.`;
    const width = String(to).length;
    return lines
      .slice(from - 1, to)
      .map((line, i) => `${String(from + i).padStart(width)}| ${line}`)
      .join('\n');
  },
});
