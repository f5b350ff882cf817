import { MemoryUsageError } from '../../shared/errors.js';
import { REMEMBER_TEXT_LIMIT, type RememberKind, readRememberAct, rememberAnswer, rememberCommandText } from '../remember-command.js';
import { outcomeFields, turnOutcome } from '../store/turn-outcome.js';
import type { OrdinaryIntent, RememberResult, TurnHandle, TurnRecord } from '../types.js';
import { type UserActDeps, runActNow } from './user-act.js';

/** How a remember records its turn: through the manager, which keeps the turn's lease. */
export interface TurnRecorder {
  beginTurn(input: { intent: OrdinaryIntent; userText: string }): TurnHandle;
  completeTurn(handle: TurnHandle, assistantText: string): TurnRecord;
}

/**
 * M-5.7 `/remember`: the user's words are admitted as an ordinary turn whose RAW text is the command as
 * typed (`typed`, else `/remember [--decision] TEXT`), answered by the program's own line (no main model
 * call), and the turn's extraction runs at once — with its consolidation, so the memory exists when this
 * resolves. For the gate the command is a standing act of the user; who speaks is still checked. Without
 * a model the turn waits in the queue like any other (`outcome: 'queued'`).
 */
export async function rememberWords(
  deps: UserActDeps,
  turns: TurnRecorder,
  input: { text: string; kind?: RememberKind; typed?: string },
): Promise<RememberResult> {
  const kind = input.kind ?? 'user_preference';
  if (kind !== 'user_preference' && kind !== 'project_decision') {
    throw new MemoryUsageError(`remember keeps a user_preference or a project_decision, not '${String(kind)}'`);
  }
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  if (text.length === 0) throw new MemoryUsageError('Nothing to remember: the text is empty');
  const length = Array.from(text).length;
  if (length > REMEMBER_TEXT_LIMIT) {
    throw new MemoryUsageError(`The text to remember has ${length} characters; at most ${REMEMBER_TEXT_LIMIT} fit one quote`);
  }
  const typed = input.typed ?? rememberCommandText(text, kind);
  const act = readRememberAct(typed);
  if (!act || act.kind !== kind || act.text.trim() !== text) {
    throw new MemoryUsageError('`typed` must be the remember command with the same text and kind');
  }
  const handle = turns.beginTurn({ intent: 'general_chat', userText: typed });
  turns.completeTurn(handle, rememberAnswer(kind));
  await runActNow(deps, handle.threadId);
  const conn = deps.conn();
  const outcome = conn.read(() => turnOutcome(conn, handle.turnId, kind));
  return { turnId: handle.turnId, kind, ...outcomeFields(outcome, deps.worker !== null) };
}
