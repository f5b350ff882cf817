// Types of corpus.mjs for the test suite.
export interface CorpusCase {
  id: string;
  category: string;
  description: string;
  steps: unknown[];
}
export interface Corpus {
  version: number;
  categories: string[];
  cases: CorpusCase[];
}
export interface CaseReport {
  id: string;
  category: string;
  failures: string[];
  labels: { expectedAccept: number; expectedReject: number; accepted: number; rejected: number; agreed: number };
}
export interface QualityReport {
  version: number;
  cases: CaseReport[];
  invariants: {
    illegalProvenance: number;
    repairLeakage: number;
    crossRepoLeakage: number;
    crossThreadLeakage: number;
    forgottenRebuilt: number;
    provenanceCompleteness: number;
    activePreferencesAndDecisions: number;
  };
  labels: { candidates: number; agreed: number; falseAccepts: number; falseRejects: number; wrongReason: number };
}
export function loadCorpus(path: string): Corpus;
export function runCorpus(corpus: Corpus, options?: { keepRepos?: boolean }): Promise<QualityReport>;
