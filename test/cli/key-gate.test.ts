import { describe, expect, it } from 'vitest';
import { KeyGate } from '../../src/cli/key-gate.js';

/** What readline would receive: each chunk, and whether it arrived as a continuation. */
function record(gate: KeyGate): { chunk: string; continuing: boolean }[] {
  const seen: { chunk: string; continuing: boolean }[] = [];
  gate.on('data', (chunk: string) => seen.push({ chunk, continuing: gate.continuing }));
  return seen;
}

describe('the key gate between the terminal and readline', () => {
  it('a paste that arrives in pieces, markers cut in half, is still one request', () => {
    const gate = new KeyGate(process.stdin);
    const seen = record(gate);
    gate.receive('\u001b[20');
    gate.receive('0~one\ntw');
    gate.receive('o\u001b[20');
    gate.receive('1~');
    gate.receive('\r');
    expect(seen).toEqual([
      { chunk: 'one', continuing: false },
      { chunk: '\r', continuing: true },
      { chunk: 'tw', continuing: false },
      { chunk: 'o', continuing: false },
      { chunk: '\r', continuing: false },
    ]);
  });

  it('while busy, keys are held (Ctrl-C interrupts, a lone Esc cancels) and replayed at the prompt', () => {
    const gate = new KeyGate(process.stdin);
    const seen = record(gate);
    const events: string[] = [];
    gate.on('interrupt', () => events.push('interrupt'));
    gate.on('cancel', () => events.push('cancel'));
    gate.busy = true;
    gate.receive('next');
    gate.receive('\u001b');
    gate.receive('\u0003');
    gate.receive(' one\r');
    expect(seen).toEqual([]);
    expect(events).toEqual(['cancel', 'interrupt']);
    gate.busy = false;
    gate.release();
    expect(seen).toEqual([
      { chunk: 'next one', continuing: false },
      { chunk: '\r', continuing: false },
    ]);
  });
});
