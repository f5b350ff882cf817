import { z } from 'zod';
import { resolveInRepo } from '../../workspace/repo-paths.js';
import { SOURCE_INDEX_LIMIT, sourceIndex } from '../../workspace/source-index.js';
import { defineTool } from './tool.js';

export const listFiles = defineTool({
  name: 'list_files',
  description: 'List files of the repository under a folder (repo-relative). Skips .git, node_modules and .autopatch-j.',
  schema: z.strictObject({
    path: z.string().default('.').describe('Folder relative to the repository root'),
    limit: z.number().int().min(1).max(1000).default(200),
  }),
  run({ path, limit }, { workspace, repoRoot }) {
    resolveInRepo(repoRoot, path);
    const prefix = path === '.' || path === '' ? '' : `${path.replace(/^\.\//, '').replace(/\/+$/, '')}/`;
    const index = sourceIndex(workspace);
    // The index stops at SOURCE_INDEX_LIMIT files; say so, or a missing file would look absent.
    const partial =
      index.length >= SOURCE_INDEX_LIMIT
        ? `\n(the repository has more than ${SOURCE_INDEX_LIMIT} files: only the first ${SOURCE_INDEX_LIMIT} are indexed)`
        : '';
    const files = index.filter((f) => f.startsWith(prefix));
    if (files.length === 0) return `No files under ${path}.${partial}`;
    const shown = files.slice(0, limit);
    const more = files.length > shown.length ? `\n… and ${files.length - shown.length} more (narrow the folder or raise limit)` : '';
    return shown.join('\n') + more + partial;
  },
});
