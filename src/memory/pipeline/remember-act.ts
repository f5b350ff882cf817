import { readRememberAct } from '../remember-command.js';

/**
 * M-5.7: for the gate an explicit remember is a standing act of the user (see `../remember-command.ts`): the
 * reading of the words is overruled, never provenance nor who speaks.
 */

/** Gate reasons about who speaks, or whether the user still says it: a remember never overrules them. */
const NEVER_OVERRULED: ReadonlySet<string> = new Set([
  'assistant_only',
  'code_or_tool_output',
  'quoted_speech',
  'third_party',
  'other_project',
  'retracted',
]);

/**
 * True when an explicit remember overrules the gate's reading of a user quote: the quoted turn is a remember
 * of this kind, the quote reaches into the remembered text, and the reason is about the reading of the words,
 * not about who speaks.
 */
export function overruledByRemember(userText: string, quoteEnd: number, kind: string, reason: string): boolean {
  const act = readRememberAct(userText);
  if (!act || act.kind !== kind || quoteEnd <= act.textStart) return false;
  return !NEVER_OVERRULED.has(reason);
}
