// How an evaluation of the vitest project quality-eval prints: to the file its launcher copies to stdout
// (quality/eval/launch.mjs), or to the console when vitest is run on the file directly.
import { appendFileSync } from 'node:fs';

const file = process.env['QUALITY_EVAL_REPORT'];

/** Writes one line of the report. */
export function print(line: string): void {
  if (file) appendFileSync(file, `${line}\n`);
  else console.log(line);
}
