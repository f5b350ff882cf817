import { existsSync, statSync } from 'node:fs';
import type { ChatMessage } from '../llm/types.js';
import { REFERENCE_START } from '../shared/at-reference.js';
import { resolveInRepo } from '../workspace/repo-paths.js';
import { listFiles } from './tools/list-files.js';
import { readFile } from './tools/read-file.js';
import { type ToolContext, runToolCall } from './tools/tool.js';
import { fromWorkingFolder } from './working-folder.js';

/** `@path` references attached to one request at most; each is bounded like a tool result. */
export const MAX_ATTACHMENTS = 8;

// The word after each `@` is read in a lookahead, so an `@` inside it ("（@a.js）和「@b.md」") starts a reference too.
const REFERENCE = new RegExp(`${REFERENCE_START}(?=(\\S+))`, 'gu');
const TRAILING = /[.,;:!?)\]}>'"，。；：！？、）」』】]+$/u;
/** Where the text after a path may begin when nothing separates them: Chinese text or punctuation. */
const STOP = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef,;:!?)\]}>'"]/u;
/** Shorter readings of one `@word` tried at most (each is one file-system check). */
const MAX_READINGS = 8;

/**
 * What an `@word` may name, longest first: the whole word less the punctuation that ends a sentence, then
 * the word cut before a Chinese character or punctuation mark that follows other text, so a path followed
 * directly by Chinese text ("@src/calc.js，有什么问题", "@src/calc.js的问题") is found, and so is a path
 * with Chinese in it. Of the cuts, the first ones (the likeliest end of a path) are kept.
 */
function readings(word: string): string[] {
  const cuts: number[] = [];
  const chars = [...word];
  let at = 0;
  for (let i = 0; i < chars.length && cuts.length < MAX_READINGS - 1; i += 1) {
    if (i > 0 && STOP.test(chars[i]!) && !STOP.test(chars[i - 1]!)) cuts.push(at);
    at += chars[i]!.length;
  }
  const out = [word, ...cuts.reverse().map((cut) => word.slice(0, cut))].map((r) => r.replace(TRAILING, ''));
  return [...new Set(out)].filter((r) => r.length > 0);
}

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
    const named = readings(match[1]!)
      .map((written) => ({ written, ...existing(repoRoot, workingFolder, written) }))
      .find((r) => r.path !== null);
    if (!named || named.path === null || found.some((r) => r.path === named.path)) continue;
    found.push({ written: named.written, path: named.path, folder: named.folder });
    if (found.length >= MAX_ATTACHMENTS) break;
  }
  return found;
}

/** The repo-relative path `written` names from the working folder, when it is a file or folder there. */
function existing(repoRoot: string, workingFolder: string, written: string): { path: string | null; folder: boolean } {
  const path = fromWorkingFolder(repoRoot, workingFolder, written.replace(/^\.\//, ''));
  try {
    const absolute = resolveInRepo(repoRoot, path);
    if (!existsSync(absolute)) return { path: null, folder: false };
    return { path, folder: statSync(absolute).isDirectory() };
  } catch {
    return { path: null, folder: false };
  }
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
