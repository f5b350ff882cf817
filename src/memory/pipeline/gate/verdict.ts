/**
 * What the gate answers (M-5.6, M-5.7): `accept`, or a problem with a named reason and a verdict — `suggest`
 * (the reading is uncertain: the candidate is held for the user) or `refuse`.
 */

export type GateReason =
  | 'assistant_only'
  | 'code_or_tool_output'
  | 'quoted_speech'
  | 'no_speech_act'
  | 'negated'
  | 'question'
  | 'hypothetical'
  | 'example'
  | 'undecided'
  | 'speculation'
  | 'temporary'
  | 'retracted'
  | 'third_party'
  | 'other_project'
  | 'description'
  | 'one_off_request'
  | 'code_fact'
  | 'weakened'
  | 'sarcasm'
  | 'paste_nearby'
  | 'polite_request'
  | 'correction'
  | 'weak_evidence';

export type Verdict = 'suggest' | 'refuse';

/**
 * The verdict each reason gives unless the rule that found it says otherwise. A reason of weak or conflicting
 * evidence suggests; a reason that says the statement is not a standing act of the user refuses.
 */
export const REASON_VERDICT: Readonly<Record<GateReason, Verdict>> = {
  assistant_only: 'refuse',
  code_or_tool_output: 'refuse',
  quoted_speech: 'refuse',
  no_speech_act: 'refuse',
  negated: 'refuse',
  question: 'refuse',
  hypothetical: 'refuse',
  example: 'refuse',
  undecided: 'refuse',
  speculation: 'refuse',
  temporary: 'refuse',
  retracted: 'refuse',
  third_party: 'refuse',
  other_project: 'refuse',
  description: 'refuse',
  one_off_request: 'suggest',
  code_fact: 'refuse',
  weakened: 'suggest',
  sarcasm: 'suggest',
  paste_nearby: 'suggest',
  polite_request: 'suggest',
  correction: 'suggest',
  weak_evidence: 'suggest',
};

export interface GateProblem {
  reason: GateReason;
  detail: string;
  verdict: Verdict;
}

export type StatementKind = 'user_preference' | 'project_decision';

export const problem = (reason: GateReason, detail: string, verdict: Verdict = REASON_VERDICT[reason]): GateProblem => ({
  reason,
  detail,
  verdict,
});

/** The same problem, held for the user instead of refused (conflicting evidence, M-5.7). */
export const held = (p: GateProblem): GateProblem => ({ ...p, verdict: 'suggest' });
