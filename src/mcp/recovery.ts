import { UNTRUSTED_PREFIX, isUntrustedReason } from '../shared/data-trust.js';
import { MemoryIntentError, MemoryNotFoundError, MemorySchemaError, describeError } from '../shared/errors.js';

/** A path as one shell word, for commands a person copies. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/u.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The commands that diagnose and recover a degraded Memory; the server itself never repairs (M-2.4). */
export function recoveryCommands(repoRoot: string): { diagnose: string; keepCopy: string; recover: string } {
  const repo = `--repo ${shellWord(repoRoot)}`;
  return {
    diagnose: `autopatch-j memory status ${repo}`,
    keepCopy: `autopatch-j memory export ${repo}`,
    recover: `autopatch-j memory clear --confirm ${repo}`,
  };
}

/** What a degraded Memory tells an MCP client: the reason, and what a person runs to recover. */
export function degradedText(reason: string, repoRoot: string): string {
  if (isUntrustedReason(reason))
    return [
      `Memory is not used: ${reason.slice(UNTRUSTED_PREFIX.length)}`,
      'This server never repairs or moves anything; it uses the folder once a person has moved it aside (no restart needed).',
    ].join('\n');
  const c = recoveryCommands(repoRoot);
  return [
    `Memory is degraded: ${reason}`,
    'This server never repairs Memory; searching, reading and recording turns are paused until it is healthy again.',
    `Diagnose: ${c.diagnose}`,
    `Keep a copy first: ${c.keepCopy}`,
    `Recover (deletes Memory; exports are kept): ${c.recover}`,
    'The server uses the recovered database on the next call; no restart is needed.',
  ].join('\n');
}

/** The text of a tool error for any failure of a Memory call. */
export function errorText(tool: string, error: unknown, repoRoot: string): string {
  if (error instanceof MemorySchemaError) return degradedText(error.reason, repoRoot);
  if (error instanceof MemoryNotFoundError) {
    return `${error.message}. Find ids with memory_search or the memory://items resource; a prefix of at least 4 characters works.`;
  }
  if (error instanceof MemoryIntentError) return error.message;
  return `${tool} failed: ${describeError(error)}`;
}
