// Types of gate.mjs for the test suite.
export type Language = 'zh' | 'en' | 'mixed';
export type Tier = 'clear' | 'hard';
export interface GateItem {
  id: string;
  category: string;
  tier: Tier;
  kind: 'user_preference' | 'project_decision' | 'discussion_context';
  text: string;
  expect: string;
  options: Record<string, unknown>;
  language: Language;
}
export interface GateResult extends GateItem {
  accepted: boolean;
  reason: string | null;
}
export interface Tally {
  n: number;
  correct: number;
  falseAccepts: number;
  falseRefusals: number;
  wrongReason: number;
  accuracy: number;
}
export interface GateFigures {
  overall: Tally;
  byTier: Record<string, Tally>;
  byCategory: Record<string, Tally>;
  byLanguage: Record<string, Tally>;
  byLanguageTier: Record<string, Record<string, Tally>>;
  byCategoryTier: Record<string, Record<string, Tally>>;
}
export interface GateCorpus {
  version: number;
  categories: Record<string, string>;
  items: GateItem[];
}
export function languageOf(text: string): Language;
export function loadGateCorpus(path: string): GateCorpus;
export function runGateCorpus(corpus: GateCorpus): Promise<{ version: number; results: GateResult[]; figures: GateFigures }>;
export function figuresOf(results: GateResult[]): GateFigures;
export function baselineOf(figures: GateFigures): {
  categories: Record<string, Record<string, { n: number; minCorrect: number; maxFalseAccepts: number }>>;
};
