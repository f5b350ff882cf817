/** What the gate answers: a problem with its reason, or nothing (M-5.6). */

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
  | 'code_fact';

export interface GateProblem {
  reason: GateReason;
  detail: string;
}

export type StatementKind = 'user_preference' | 'project_decision';

export const problem = (reason: GateReason, detail: string): GateProblem => ({ reason, detail });
