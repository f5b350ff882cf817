import { safeTerminalText } from './render/safe-text.js';

/**
 * Where the CLI writes: answers and command results to stdout, progress and diagnostics to stderr. `out`
 * and `err` neutralize every string (one terminal-safe path for all output); only `control` writes the
 * program's own fixed terminal sequences (the spinner's carriage return and line erase).
 */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** The program's own terminal control sequences, never data. */
  control(sequence: string): void;
  /** True when stderr is a terminal (spinners and progress lines only then). */
  readonly interactive: boolean;
}

export function processOutput(): Output {
  return {
    out: (text) => void process.stdout.write(safeTerminalText(text)),
    err: (text) => void process.stderr.write(safeTerminalText(text)),
    control: (sequence) => void process.stderr.write(sequence),
    interactive: process.stderr.isTTY === true,
  };
}

/** Writes provider or stored RAW text literally (M-9.9). */
export function literal(text: unknown): string {
  return safeTerminalText(text);
}
