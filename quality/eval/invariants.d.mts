// Types of invariants.mjs for the test suite.
export function exportTables(dir: string): Promise<Record<string, Record<string, unknown>[]>>;
export function auditProvenance(dir: string): Promise<{ illegal: number; active: number; complete: number; forgottenRebuilt: number }>;
export function repairLeaks(dir: string, options?: { routeOf?: (intent: string) => { intent: string; fallback: null } }): Promise<number>;
export function crossRepoLeaks(repos: { id: string; dir: string; titles: string[] }[]): Promise<number>;
