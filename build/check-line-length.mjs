// Fails (exit 1) when a line of src/**/*.ts or src/**/*.cts is longer than 140 characters.
// Length is the JavaScript string length of the line (UTF-16 code units), the lexicon's data included.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX = 140;
const root = fileURLToPath(new URL('..', import.meta.url));
const EXEMPT = new Set([]);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.isFile() && (entry.name.endsWith('.ts') || entry.name.endsWith('.cts'))) yield path;
  }
}

const problems = [];
for (const path of sourceFiles(join(root, 'src'))) {
  const name = relative(root, path).split(sep).join('/');
  if (EXEMPT.has(name)) continue;
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.length > MAX) problems.push(`${name}:${i + 1}: ${line.length} characters`);
  });
}

if (problems.length > 0) {
  console.error(`Lines longer than ${MAX} characters:\n${problems.join('\n')}`);
  process.exit(1);
}
