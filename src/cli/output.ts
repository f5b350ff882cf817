import { safeTerminalText } from './render/safe-text.js';

/** Where the CLI writes: answers and command results to stdout, progress and diagnostics to stderr. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (spinners and progress lines only then). */
  readonly interactive: boolean;
}

export function processOutput(): Output {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
  };
}

/** Writes provider or stored RAW text literally (M-9.9). */
export function literal(text: unknown): string {
  return safeTerminalText(text);
}
