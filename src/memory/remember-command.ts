/**
 * M-5.7: an explicit remember (`/remember [--decision] TEXT`) is recorded as an ordinary user turn whose RAW
 * text is what the user typed, and it is a standing act of the user for the gate: the reading of the words
 * (no marker word, question form, a weakener, "for now" …) is overruled by the command itself. It never
 * overrules provenance (the quote must be in the turn's text, in the user's role) nor who speaks: a third
 * party, another project, quoted or pasted words, or words the user takes back stay refused.
 */

export type RememberKind = 'user_preference' | 'project_decision';

/** A remember command read from a turn's RAW user text. */
export interface RememberAct {
  kind: RememberKind;
  /** Offset (UTF-16) of the remembered text in the RAW turn text, after the command and its flag. */
  textStart: number;
  text: string;
}

/** Characters a remember text may have: a source quote holds at most 2,000 (INTERFACES.md §2.1). */
export const REMEMBER_TEXT_LIMIT = 2_000;

const COMMAND = /^\/remember(\s+--decision)?(?:\s+|$)/u;

/** The canonical RAW text of a remember, when the library is called without the words as typed. */
export function rememberCommandText(text: string, kind: RememberKind): string {
  return `/remember ${kind === 'project_decision' ? '--decision ' : ''}${text}`;
}

/** The program's own answer to a keep, stored as the assistant text of the turn that records it (M-5.7). */
export function keepAnswer(kind: string): string {
  const what = kind === 'project_decision' ? 'a project decision' : kind === 'discussion_context' ? 'discussion context' : 'a preference';
  return `Asked Memory to keep this as ${what}.`;
}

/** The program's own answer to a remember, stored as the assistant text the user saw (M-1.3). */
export function rememberAnswer(kind: RememberKind): string {
  return `Asked Memory to remember this as ${kind === 'project_decision' ? 'a project decision' : 'a preference'}.`;
}

/** The remember command a RAW user text holds, or null when it is no remember. */
export function readRememberAct(userText: string): RememberAct | null {
  const m = COMMAND.exec(userText);
  if (!m) return null;
  const text = userText.slice(m[0].length);
  if (text.trim().length === 0) return null;
  return { kind: m[1] ? 'project_decision' : 'user_preference', textStart: m[0].length, text };
}
