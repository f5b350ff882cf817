/**
 * The `memory_jobs.diagnostics` JSON, owned here: what a job records for status, refusals, suggestions and
 * retries (M-5.4, M-5.7, M-9.4a). The pipeline's own diagnostics refine `BatchDiagnostics` (`finishBatch`
 * takes nothing else); SQL reads a field through `diagnosticsPath` or `entryPath`, typed by these shapes, so a
 * renamed field fails to compile instead of reading nothing.
 */

/** An unfinished job's state after a failure: its run of unusable answers and the cap of its next batch. */
export interface JobFailureState {
  purpose: string;
  /** One short line: what went wrong, for status and warnings. */
  error: string;
  /** Unusable model answers in a row (transport failures neither add nor reset). */
  unusable: number;
  /** At most this many turns in the next batch that starts with this job (bisecting a poison turn). */
  batchCap: number;
  /** True when the job is failed (terminal until `retry`). */
  failed: boolean;
}

/** A candidate or operation a batch refused, or a candidate it held for the user, as the diagnostics keep it. */
export interface DiagnosticsEntry {
  kind: string;
  title: string;
  reason: string;
  detail?: string;
  /** The user's words it quotes (clipped) and their turn. */
  quote?: string;
  turnId?: string | null;
  /** Set once the user decided on a held entry: `kept` (with what recorded the keep) or `dismissed`. */
  state?: 'kept' | 'dismissed';
}

/** What a finished batch records on its lead job: refusals by reason, the refused and held entries. */
export interface BatchDiagnostics {
  purpose: string;
  filtered: Partial<Record<string, number>>;
  rejections: readonly DiagnosticsEntry[];
  suggestions?: readonly DiagnosticsEntry[];
  repairs: readonly string[];
}

/** The JSON path of a top-level diagnostics field, for SQL (`json_extract`, `json_each`, `json_set`). */
export function diagnosticsPath(field: keyof JobFailureState | keyof BatchDiagnostics): string {
  return `$.${field}`;
}

/** The JSON path of a field of one refused or held entry (the `value` of `json_each` over a list of them). */
export function entryPath(field: keyof DiagnosticsEntry): string {
  return `$.${field}`;
}

/** The diagnostics as stored. */
export function writeDiagnostics(diagnostics: JobFailureState | BatchDiagnostics): string {
  return JSON.stringify(diagnostics);
}

/** The failure state of a job's stored diagnostics; fields absent or unreadable take their start values. */
export function readFailureState(diagnostics: string | null, batchSize: number): { unusable: number; batchCap: number } {
  let parsed: Partial<JobFailureState> = {};
  try {
    parsed = diagnostics === null ? {} : (JSON.parse(diagnostics) as Partial<JobFailureState>);
  } catch {
    parsed = {};
  }
  return {
    unusable: typeof parsed.unusable === 'number' ? parsed.unusable : 0,
    batchCap: typeof parsed.batchCap === 'number' ? parsed.batchCap : batchSize,
  };
}
