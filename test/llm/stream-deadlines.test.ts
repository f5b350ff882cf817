import { describe, expect, it } from 'vitest';
import { LlmCallError } from '../../src/llm/diagnostics.js';
import { OpenAiCompatibleProvider } from '../../src/llm/openai-provider.js';
import { byRole, runCli } from '../helpers/cli.js';
import { fakeServerEachTest } from '../helpers/fake-openai.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-test', AUTOPATCH_LLM_MODEL: 'fake-model' });

function provider(timeoutMs: number): OpenAiCompatibleProvider {
  return new OpenAiCompatibleProvider({
    baseUrl: fake.server.url,
    apiKey: 'k',
    model: 'm',
    reasoningEffort: null,
    extraBody: {},
    timeoutMs,
  });
}

async function failure(promise: Promise<unknown>): Promise<LlmCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LlmCallError) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

describe('deadlines of a streamed main call (issue "Safe hands", item 3)', () => {
  it('a trickle of tokens that never ends fails at the total deadline (4 × the timeout), with what arrived never passing as an answer', async () => {
    fake.server.always({ endless: 'trickle', everyMs: 40 });
    const started = Date.now();
    const texts: string[] = [];
    const error = await failure(
      provider(400).chat({ purpose: 'react', messages: [{ role: 'user', content: 'hi' }], onText: (t) => texts.push(t) }),
    );
    const took = Date.now() - started;
    expect(error.details).toMatchObject({ kind: 'timeout', deadline: 'total' });
    expect(error.message).toBe('the answer did not finish within 1.6 s (4 × AUTOPATCH_LLM_TIMEOUT_MS=400)');
    expect(texts.length).toBeGreaterThan(5);
    expect(took).toBeGreaterThanOrEqual(1_500);
    expect(took).toBeLessThan(10_000);
  });

  it('a stream of keep-alive comments only fails at the idle deadline', async () => {
    fake.server.always({ endless: 'keep-alive', everyMs: 50 });
    const error = await failure(provider(500).chat({ purpose: 'repair', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.details).toMatchObject({ kind: 'timeout', deadline: 'idle' });
    expect(error.message).toBe('the answer stopped: nothing arrived for 0.5 s (AUTOPATCH_LLM_TIMEOUT_MS=500)');
  });

  it('ask against a never-ending stream ends with the turn failed and one clear line', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ endless: 'trickle', everyMs: 50 }) }));
    const run = await runCli(['ask', '--repo', repo, 'explain the parser'], { env: fake.env({ AUTOPATCH_LLM_TIMEOUT_MS: '500' }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/did not finish its answer: the answer did not finish within 2 s \(4 × AUTOPATCH_LLM_TIMEOUT_MS=500\)/);
    expect(run.ms).toBeLessThan(30_000);
    const state = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT state FROM turns').all());
    expect(state).toEqual([{ state: 'failed' }]);
  });
});
