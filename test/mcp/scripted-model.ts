import { payloadOf } from '../helpers/cli.js';
import { type FakeOpenAi, type RecordedRequest, fakeServerEachTest } from '../helpers/fake-openai.js';

/** A fake OpenAI-compatible server for each test of the calling file, and the environment that points at it. */
export function useFakeModel(): { model: () => FakeOpenAi; env: () => Record<string, string> } {
  const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-mcp-test', AUTOPATCH_LLM_MODEL: 'fake-model' });
  return { model: () => fake.server, env: () => fake.env() };
}

export interface ExtractionPayload {
  turns: { turn_id: string; user: string }[];
}
export interface ConsolidationPayload {
  candidates: { candidate_id: string; title: string; aliases: string[] }[];
}

export const PREFERENCE = '以后回答先给结论。';
export const DECISION = 'We decided to use PostgreSQL 16 for the billing service.';

/** Extraction: a preference for every "以后…。" sentence, a decision for every "We decided to ….". */
export const extract = (r: RecordedRequest) => {
  const candidates = payloadOf<ExtractionPayload>(r).turns.flatMap((t) => {
    const out: object[] = [];
    const pref = /以后[^。]*。/u.exec(t.user);
    if (pref) {
      out.push({
        kind: 'user_preference',
        title: pref[0].replace(/^以后|。$/gu, ''),
        content: pref[0],
        aliases: ['回答风格'],
        sources: [{ turn_id: t.turn_id, role: 'user', quote: pref[0] }],
      });
    }
    const decision = /We decided to ([^.]*)\./u.exec(t.user);
    if (decision) {
      out.push({
        kind: 'project_decision',
        title: `Use ${decision[1]!.replace(/^use /u, '')}`,
        content: decision[0],
        aliases: ['database'],
        sources: [{ turn_id: t.turn_id, role: 'user', quote: decision[0] }],
      });
    }
    return out;
  });
  return { text: JSON.stringify({ thread_compaction: 'The user set an answer style and chose a database.', candidates }) };
};
export { createAll } from '../helpers/cli.js';

export interface StatusView {
  health: string;
  items: Record<string, number>;
  jobs: Record<string, number>;
  turns: Record<string, number>;
  model_configured: boolean;
  background_worker: string;
  recovery: { recover: string } | null;
  degraded_reason: string | null;
}
export interface Hit {
  id: string;
  kind: string;
  title: string;
  match: string;
}
export interface ReadView {
  id: string;
  kind: string;
  title: string;
  non_factual: boolean;
  sources: { turn_id: string; role: string; excerpt: string }[];
}
