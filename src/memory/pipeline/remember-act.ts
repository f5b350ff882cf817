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
  'paste_nearby',
]);

/** True when the quote reaches into the text of an explicit remember of this kind in the quoted user turn. */
export function isRemembered(userText: string, quoteEnd: number, kind: string): boolean {
  const act = readRememberAct(userText);
  return act !== null && act.kind === kind && quoteEnd > act.textStart;
}

/** Whether a remember overrules a gate reason: a reading of the words, not who speaks or what is taken back. */
export function rememberOverrules(reason: string): boolean {
  return !NEVER_OVERRULED.has(reason);
}

/** The words of an explicit remember in the user turn (after the command), or null when there is none. */
export function rememberedWords(userText: string): string | null {
  const act = readRememberAct(userText);
  return act === null ? null : userText.slice(act.textStart);
}
