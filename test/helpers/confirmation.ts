import type { CandidateAnswer } from '../../src/memory/pipeline/contracts.js';
import { type ContextTurn, type ValidationContext, validateCandidate } from '../../src/memory/pipeline/validation.js';

/** A completed turn of thread `t-1`. */
export const contextTurn = (id: string, sequence: number, userText: string, assistantText: string | null = 'ok'): ContextTurn => ({
  id,
  threadId: 't-1',
  sequence,
  state: 'completed',
  userText,
  assistantText,
});

export interface ConfirmationCase {
  /** The user's turn that the assistant's proposal answers. */
  ask: string;
  /** The part of the proposal the decision cites (default: the whole answer). */
  proposalQuote?: string;
  /** The part of the reply the decision cites (default: the whole reply). */
  quote?: string;
  /** The user's next turn, when there is one. */
  next?: string;
}

/**
 * M-5.5: the verdict on a project decision taken from an assistant proposal (`answer`) and the user's `reply` to
 * it, as `validateCandidate` gives it: `ok`, or `verdict:reason`.
 */
export function judgeConfirmation(answer: string, reply: string, options: ConfirmationCase): string {
  const proposalQuote = options.proposalQuote ?? answer;
  const c: CandidateAnswer = {
    kind: 'project_decision',
    title: proposalQuote,
    content: proposalQuote,
    aliases: [],
    sources: [
      { turn_id: 'u2', role: 'user', quote: options.quote ?? reply },
      { turn_id: 'u1', role: 'assistant', quote: proposalQuote },
    ],
  };
  const turns = [contextTurn('u1', 1, options.ask, answer), contextTurn('u2', 2, reply)];
  if (options.next !== undefined) turns.push(contextTurn('u3', 3, options.next));
  const context: ValidationContext = { threadId: 't-1', turns: new Map(turns.map((t) => [t.id, t])), adjacent: null };
  const result = validateCandidate(c, context);
  return result.ok ? 'ok' : `${result.verdict}:${result.reason}`;
}
