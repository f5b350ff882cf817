// Types of retrieval.mjs for the test suite.
export interface RetrievalFigures {
  n: number;
  answerable: number;
  recallAt5: number | null;
  mrr: number | null;
  top1: number | null;
  precision: number | null;
  emptyAnswerable: number | null;
  noAnswer: number;
  falseHits: number | null;
  reach: number | null;
}
export interface FigureSet {
  all: RetrievalFigures;
  byType: Record<string, RetrievalFigures>;
  byLang: Record<string, RetrievalFigures>;
}
export interface RetrievalCorpus {
  version: number;
  part: string;
  projects: { id: string; memories: unknown[]; queries: { q: string; type: string; lang: string; relevant: string[] }[] }[];
}
export interface RetrievalReport {
  part: string;
  version: number;
  ours: FigureSet;
  bm25: FigureSet;
  missing: { project: string; key: string; reason: string }[];
  unanswerable: number;
  details: unknown[];
}
export const QUERY_TYPES: string[];
export function loadRetrievalCorpus(path: string): RetrievalCorpus;
export function runRetrieval(
  corpus: RetrievalCorpus,
  api: { MemoryManager: unknown; ScriptedLlm: unknown },
  options?: { base?: RetrievalCorpus; details?: boolean },
): Promise<RetrievalReport>;
export function figures(tally: unknown): RetrievalFigures;
export function formatRetrieval(report: RetrievalReport, label: string): string;
