import { existsSync, statSync } from 'node:fs';
import type { ChatMessage } from '../llm/types.js';
import { resolveInRepo } from '../workspace/repo-paths.js';
import { listFiles } from './tools/list-files.js';
import { readFile } from './tools/read-file.js';
import { type ToolContext, runToolCall } from './tools/tool.js';
import { fromWorkingFolder } from './working-folder.js';

/** `@path` references attached to one request at most; each is bounded like a tool result. */
export const MAX_ATTACHMENTS = 8;

/** `@` at the start of a word, then the path; punctuation that ends a sentence is not part of it. */
const REFERENCE = /(?<=^|\s)@(\S+)/gu;
const TRAILING = /[.,;:!?)\]}>'"，。；：！？、）」』】]+$/u;

/** One `@path` of a request that names a file or folder of the repository. */
export interface Reference {
  /** As typed, without the `@`. */
  written: string;
  /** Repo-relative, resolved from the working folder first. */
  path: string;
  folder: boolean;
}

/** The `@path` words of a request that name an existing file or folder; anything else (`@Override`, an e-mail) is text. */
export function references(input: string, repoRoot: string, workingFolder: string): Reference[] {
  const found: Reference[] = [];
  for (const match of input.matchAll(REFERENCE)) {
    const written = match[1]!.replace(TRAILING, '');
    if (written.length === 0) continue;
    const path = fromWorkingFolder(repoRoot, workingFolder, written.replace(/^\.\//, ''));
    let stat;
    try {
      const absolute = resolveInRepo(repoRoot, path);
      if (!existsSync(absolute)) continue;
      stat = statSync(absolute);
    } catch {
      continue;
    }
    if (found.some((r) => r.path === path)) continue;
    found.push({ written, path, folder: stat.isDirectory() });
    if (found.length >= MAX_ATTACHMENTS) break;
  }
  return found;
}

/**
 * Reads what the `@path` references of the last user message name and attaches it to that message: a file
 * as `read_file` gives it (numbered lines, cut at the tool-output limit), a folder as `list_files` does. The
 * CLI shows each read as a tool line. Only the model's copy changes: the RAW text Memory stores is the
 * request as typed.
 */
export async function attachReferences(
  messages: ChatMessage[],
  context: ToolContext,
  workingFolder: string,
  events?: {
    onTool?: (name: string, argumentsText: string) => void;
    onToolResult?: (name: string, argumentsText: string, output: string) => void;
  },
): Promise<void> {
  const last = messages.at(-1);
  if (!last || last.role !== 'user' || !last.content.includes('@')) return;
  const found = references(last.content, context.repoRoot, workingFolder);
  if (found.length === 0) return;
  const parts: string[] = [];
  for (const [i, reference] of found.entries()) {
    const tool = reference.folder ? listFiles : readFile;
    const call = { id: `attach_${i}`, name: tool.name, arguments: JSON.stringify({ path: reference.path }) };
    events?.onTool?.(call.name, call.arguments);
    const output = await runToolCall([tool], call, context);
    events?.onToolResult?.(call.name, call.arguments, output);
    parts.push(`--- @${reference.written} (${reference.folder ? 'folder' : 'file'} ${reference.path}) ---\n${output}`);
  }
  messages[messages.length - 1] = {
    ...last,
    content: `${last.content}\n\n[Attached with @, read from the working tree just now:]\n${parts.join('\n\n')}`,
  };
}
