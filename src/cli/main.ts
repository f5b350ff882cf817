#!/usr/bin/env node
// `node dist/cli/main.js …` runs the same command line as the `autopatch-j` bin (bin.cts).
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./bin.cjs');
