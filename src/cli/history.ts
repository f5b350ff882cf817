import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { safeTerminalText } from '../shared/terminal-text.js';

/** Why the history file is not used, or null when it is fine. A symbolic link is never followed. */
export function historyProblem(path: string): string | null {
  try {
    const found = lstatSync(path);
    if (found.isSymbolicLink())
      return `${path} is a symbolic link; the CLI history is neither read nor written through it (remove the link to keep history)`;
    if (!found.isFile()) return `${path} is not a regular file; the CLI history is not used`;
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `${path} cannot be checked: ${(error as Error).message}`;
  }
}

/** How a line of the file that holds an encoded entry starts. */
const ENCODED = '{"lines":';

/**
 * A request of several lines is kept as one entry: one line of the file holding `{"lines": [...]}`, so it is
 * recalled as it was typed, line breaks included. A single line that itself starts like that is encoded the
 * same way, so it is not read back as several. Any other line of the file is one single-line entry.
 */
function encodeEntry(text: string): string {
  // A lone CR breaks a line too, as Enter does.
  const lines = text.split(/\r\n|\r|\n/);
  return lines.length > 1 || text.startsWith(ENCODED) ? JSON.stringify({ lines }) : text;
}

function decodeEntry(line: string): string {
  if (!line.startsWith(ENCODED)) return safeTerminalText(line);
  try {
    const { lines } = JSON.parse(line) as { lines: unknown };
    if (Array.isArray(lines) && lines.every((l) => typeof l === 'string')) return lines.map((l) => safeTerminalText(l)).join('\n');
  } catch {
    // Not an entry written by us: shown as the text it is.
  }
  return safeTerminalText(line);
}

/**
 * The saved entries, newest first, for readline. Recalled entries are drawn by readline as they are, so they
 * are neutralized here (each line of a multi-line entry on its own): a crafted history line cannot send
 * escape sequences to the terminal.
 */
export function loadHistory(path: string, limit: number): string[] {
  if (historyProblem(path) !== null) return [];
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return [];
  }
  try {
    return readFileSync(fd, 'utf8')
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .slice(-limit)
      .reverse()
      .map(decodeEntry);
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends one entry (a request of several lines stays one entry), never through a symbolic link
 * (O_NOFOLLOW), creating the file 0600 whatever the umask. Returns an error text instead of throwing:
 * history is a convenience and must not stop a session.
 */
export function saveHistory(path: string, line: string): string | null {
  const problem = historyProblem(path);
  if (problem !== null) return problem;
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    return `the CLI history cannot be written: ${(error as Error).message}`;
  }
  try {
    if (fstatSync(fd).size === 0) fchmodSync(fd, 0o600);
    const bytes = Buffer.from(`${encodeEntry(line)}\n`, 'utf8');
    let offset = 0;
    while (offset < bytes.length) {
      const written = writeSync(fd, bytes, offset, bytes.length - offset);
      if (written <= 0) return 'the CLI history could not be written completely';
      offset += written;
    }
    return null;
  } catch (error) {
    return `the CLI history cannot be written: ${(error as Error).message}`;
  } finally {
    closeSync(fd);
  }
}
