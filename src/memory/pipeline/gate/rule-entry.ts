import type { GateReason, StatementKind, Verdict } from './verdict.js';

/** One named entry of the gate's rule table (rules.ts): what it reads, what it gives, and its example sentences. */
export interface GateRule {
  name: string;
  /** What the rule reads, in one sentence. */
  reads: string;
  reason: GateReason | 'accept';
  verdict: Verdict | 'accept';
  /** The kind judged; a `discussion_context` rule is read by the discussion check (judgeDiscussion). */
  kind: StatementKind | 'discussion_context';
  /** Sentences the rule decides with its reason and verdict. */
  fires: readonly string[];
  /** Near sentences it must leave standing (accepted). */
  stands?: readonly string[];
  /** The quoted part of each example, when it is not the whole text. */
  quote?: string;
  /** The user's next turn, for a rule that reads it. */
  next?: string;
}
