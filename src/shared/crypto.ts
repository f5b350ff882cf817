import { createRequire } from 'node:module';

let loaded: typeof import('node:crypto') | undefined;

/**
 * node:crypto, loaded on first use: it costs a few milliseconds at start-up, and `memory list`, `show` and
 * `status` make no id and hash nothing.
 */
export function nodeCrypto(): typeof import('node:crypto') {
  loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return loaded;
}
