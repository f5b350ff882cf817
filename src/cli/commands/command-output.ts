import { MemoryError } from '../../shared/errors.js';

/** What a command returns; the caller prints `text` (or `json` with --json) and exits with `exitCode`. */
export interface CommandOutput {
  text: string;
  /** `text` carries the program's own colours around neutralized data (written with outRich). */
  rich?: boolean;
  json?: unknown;
  exitCode: number;
  /** Where `text` goes; by default stdout on success and stderr otherwise (a report goes to stdout either way). */
  channel?: 'out' | 'err';
}

/** Exit codes (INTERFACES.md §4). */
export const EXIT = { ok: 0, failure: 1, usage: 2, degraded: 3 } as const;

/** The one table from a Memory error to the exit code a command ends with; any other failure exits 1. */
const EXIT_BY_ERROR: Record<string, number> = {
  MemorySchemaError: EXIT.degraded,
  MemoryIntentError: EXIT.usage,
  MemoryUsageError: EXIT.usage,
};

/** The exit code for a thrown value. */
export function exitCodeOf(error: unknown): number {
  return error instanceof MemoryError ? (EXIT_BY_ERROR[error.name] ?? EXIT.failure) : EXIT.failure;
}

export function ok(text: string, json?: unknown): CommandOutput {
  return { text, json, exitCode: EXIT.ok };
}

export function failure(text: string, exitCode: number = EXIT.failure, json?: unknown): CommandOutput {
  return { text, json: json ?? { error: text }, exitCode };
}

/** Where a command runs: in a session (hints name slash commands) or from the shell (hints name `autopatch-j …`). */
export type Surface = 'session' | 'shell';

/** How a person runs `command` (`memory retry ID`, `apply`) from where they are. */
export function invocation(command: string, surface: Surface): string {
  return surface === 'session' ? `/${command}` : `autopatch-j ${command}`;
}
