import pc from 'picocolors';
import type { Output } from '../output.js';

export type Style = ReturnType<typeof pc.createColors>;

/**
 * Colours for one stream: real ones when that stream is a terminal and NO_COLOR is unset, identity
 * functions otherwise (so `autopatch-j patch | less` gets plain text even when stderr is a terminal).
 */
export function styleFor(output: Pick<Output, 'color' | 'outTerminal' | 'interactive'>, stream: 'out' | 'err' = 'out'): Style {
  return pc.createColors(output.color && (stream === 'out' ? output.outTerminal : output.interactive));
}
