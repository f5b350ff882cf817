import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import type { ChatMessage, ToolCall } from '../llm/types.js';
import { resolveInRepo } from '../workspace/repo-paths.js';

/**
 * The folder of the repository the user started in (repo-relative, forward slashes; '' at the top). From
 * `src/main/java/com/example`, "explain Calculator.java" names `src/main/java/com/example/Calculator.java`:
 * the model is told where the user is, and relative paths in tool calls are resolved from there first.
 */
export function workingFolderNote(folder: string): string {
  return (
    `The user started this session in the folder ${folder}/ of the repository: files and paths they name are ` +
    `relative to it unless they say otherwise. Tool paths are relative to the repository root ` +
    `(${folder}/Example.java, not Example.java); a relative path that exists under ${folder}/ is read from there first.`
  );
}

/** The system message with the working-folder note added (unchanged at the top of the repository). */
export function withWorkingFolder(system: ChatMessage, folder: string): ChatMessage {
  if (folder === '' || system.role !== 'system') return system;
  return { ...system, content: `${system.content}\n\n${workingFolderNote(folder)}` };
}

/**
 * A path as the user or model wrote it, resolved from the working folder first: the repo-relative path
 * under the folder when that exists, else the path unchanged (read from the repository root).
 */
export function fromWorkingFolder(repoRoot: string, folder: string, path: string): string {
  if (folder === '' || path === '' || path === '.' || posix.isAbsolute(path)) return path;
  const candidate = posix.normalize(posix.join(folder, path));
  try {
    return existsSync(resolveInRepo(repoRoot, candidate)) ? candidate : path;
  } catch {
    // Outside the repository or in a skipped folder from here: the tool refuses or resolves it itself.
    return path;
  }
}

/** A tool call whose `path` (and each `edits[].path`) is resolved from the working folder first. */
export function inWorkingFolder(call: ToolCall, repoRoot: string, folder: string): ToolCall {
  if (folder === '') return call;
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return call;
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return call;
  const record = args as Record<string, unknown>;
  let changed = false;
  const resolve = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    const resolved = fromWorkingFolder(repoRoot, folder, value);
    changed ||= resolved !== value;
    return resolved;
  };
  const out: Record<string, unknown> = { ...record, ...('path' in record ? { path: resolve(record['path']) } : {}) };
  if (Array.isArray(record['edits'])) {
    out['edits'] = record['edits'].map((edit: unknown) =>
      edit !== null && typeof edit === 'object' && 'path' in edit ? { ...edit, path: resolve((edit as { path: unknown }).path) } : edit,
    );
  }
  return changed ? { ...call, arguments: JSON.stringify(out) } : call;
}
