import { describe, expect, it } from 'vitest';
import { ordinaryProfile, repairProfile } from '../../src/agent/profiles.js';
import { toolSchema } from '../../src/agent/tools/tool.js';

// The tool schemas are the model's contract: a change to a name, a description or a parameter changes what
// every provider sees, so it must be a deliberate one (`npx vitest run -u test/agent/tool-schemas.test.ts`).
describe('agent tool schemas (the model contract)', () => {
  it('match the recorded snapshot, per profile', async () => {
    const profiles = {
      code_explain: ordinaryProfile('code_explain'),
      general_chat: ordinaryProfile('general_chat'),
      code_audit: repairProfile('code_audit'),
      patch_explain: repairProfile('patch_explain'),
      patch_revise: repairProfile('patch_revise'),
    };
    const schemas = Object.fromEntries(Object.entries(profiles).map(([intent, p]) => [intent, p.tools.map((t) => toolSchema(t))]));
    await expect(`${JSON.stringify(schemas, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tool-schemas.json');
  });

  it('repair profiles never carry a Memory tool (M-4.1)', () => {
    for (const intent of ['code_audit', 'patch_explain', 'patch_revise'] as const) {
      expect(
        repairProfile(intent)
          .tools.map((t) => t.name)
          .filter((n) => n.startsWith('memory_')),
      ).toEqual([]);
    }
    expect(ordinaryProfile('general_chat').tools.map((t) => t.name)).toEqual(expect.arrayContaining(['memory_search', 'memory_read']));
  });
});
