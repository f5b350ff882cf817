import pc from 'picocolors';
import type { Output } from '../output.js';

export type Style = ReturnType<typeof pc.createColors>;

/** Colours for this output: real ones on a terminal, identity functions when piped or NO_COLOR is set. */
export function styleFor(output: Pick<Output, 'color'>): Style {
  return pc.createColors(output.color);
}
