#!/usr/bin/env node
// Part of `npm run eval:quality`: the model-answer deviation corpus (test/fixtures/model-answers.json), per
// deviation class: how many answers formed their memories (safe deviations: form only) and how many were
// refused (unsafe ones: meaning), and any illegal memory. Runs through the public API with a scripted model.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryManager, ScriptedLlm } from '../dist/index.js';
import { judgeModelAnswerCase, loadModelAnswerCases, runModelAnswerCase } from './model-answer-cases.mjs';

const cases = loadModelAnswerCases();
const byClass = new Map();
let illegal = 0;
let failedCases = 0;
for (const c of cases) {
  const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-answers-'));
  let now = 1_800_000_000_000;
  let respond = () => null;
  const llm = new ScriptedLlm();
  for (const purpose of ['memory_extraction', 'memory_consolidation']) {
    llm.always(purpose, (request) => {
      const answer = respond(purpose, JSON.parse(request.messages[1].content));
      if (!answer) throw new Error('no scripted answer left');
      return answer;
    });
  }
  const memory = MemoryManager.open({ repoRoot: dir, llm, now: () => now });
  try {
    const result = await runModelAnswerCase(
      memory,
      c,
      (fn) => (respond = fn),
      (ms) => (now += ms),
    );
    const failures = judgeModelAnswerCase(c, result);
    const row = byClass.get(c.class) ?? { cases: 0, safe: 0, formed: 0, unsafe: 0, refused: 0, failures: [] };
    row.cases += 1;
    if (c.safe) row.safe += 1;
    else row.unsafe += 1;
    if (failures.length === 0) {
      if (c.safe) row.formed += 1;
      else row.refused += 1;
    } else {
      failedCases += 1;
      row.failures.push(`${c.id}: ${failures.join('; ')}`);
    }
    illegal += failures.filter((f) => f.startsWith('illegal memory')).length;
    byClass.set(c.class, row);
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`\nModel-answer deviations: ${cases.length} cases in ${byClass.size} classes (INTERFACES.md §2, M-5.5, M-6.4, M-9.4a)\n`);
console.log('| deviation class | cases | safe: memories formed | unsafe: refused | wrong |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of [...byClass].sort((a, b) => b[1].cases - a[1].cases || a[0].localeCompare(b[0]))) {
  console.log(
    `| ${name} | ${r.cases} | ${r.safe > 0 ? `${r.formed}/${r.safe}` : '—'} | ${r.unsafe > 0 ? `${r.refused}/${r.unsafe}` : '—'} | ${r.failures.length} |`,
  );
}
console.log(`\nillegal memories ${illegal} · cases that went wrong ${failedCases}`);
for (const r of byClass.values()) for (const f of r.failures) console.log(`  ✗ ${f}`);
if (failedCases > 0 || illegal > 0) process.exitCode = 1;
