import { safeRichText } from './render/rich-text.js';
import { safeTerminalText } from '../shared/terminal-text.js';

/**
 * Where the CLI writes: answers and command results to stdout, progress and diagnostics to stderr. `out`
 * and `err` neutralize every string (one terminal-safe path for all output); `outRich` and `errRich` write
 * text the program styled itself (colours, a redrawn answer) and let only those sequences through; only
 * `control` writes the program's own fixed terminal sequences (the spinner's carriage return and line erase).
 */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Styled text: data already neutralized, plus SGR colours and the answer redraw sequences. */
  outRich(text: string): void;
  errRich(text: string): void;
  /** The program's own terminal control sequences, never data. */
  control(sequence: string): void;
  /** True when stderr is a terminal (spinners and progress lines only then). */
  readonly interactive: boolean;
  /** True when stdout is a terminal: answers are rendered (markdown, colour) only then. */
  readonly outTerminal: boolean;
  /** Colour allowed at all; the context turns it off when NO_COLOR is set. */
  color: boolean;
  /** Width to wrap to. */
  columns(): number;
  /** Height of the terminal (for redrawing a streamed answer). */
  rows(): number;
  /** True once stdout was closed by its reader (`| head`). */
  readonly closed: boolean;
  /** Called once when stdout is closed by its reader. */
  onClosed(listener: () => void): void;
}

/** The process's own streams. A closed stdout (EPIPE) is noted, never thrown. */
export function processOutput(): Output {
  let closed = false;
  const listeners: (() => void)[] = [];
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (closed) return;
    closed = true;
    for (const listener of listeners.splice(0)) listener();
  });
  const toStdout = (text: string): void => {
    if (!closed) process.stdout.write(text);
  };
  return {
    out: (text) => toStdout(safeTerminalText(text)),
    err: (text) => void process.stderr.write(safeTerminalText(text)),
    outRich: (text) => toStdout(safeRichText(text)),
    errRich: (text) => void process.stderr.write(safeRichText(text)),
    control: (sequence) => void process.stderr.write(sequence),
    interactive: process.stderr.isTTY === true,
    outTerminal: process.stdout.isTTY === true,
    color: process.stdout.isTTY === true || process.stderr.isTTY === true,
    columns: () => process.stdout.columns || process.stderr.columns || 80,
    rows: () => process.stdout.rows || 24,
    get closed() {
      return closed;
    },
    onClosed: (listener) => {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}

/** Writes provider or stored RAW text literally (M-9.9). */
export function literal(text: unknown): string {
  return safeTerminalText(text);
}
