import { describe, expect, it } from 'vitest';
import { utf8Text } from '../../src/cli/stdin.js';
import { InputEncodingError } from '../../src/shared/errors.js';

describe('piped bytes as UTF-8 text', () => {
  it('names the first byte that is not UTF-8: the text before it decodes, the sequence there does not', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    let seed = 7;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >>> 8) & 0xff;
    const samples = [Buffer.from('caf\xe9', 'latin1'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3]), Buffer.from('好', 'utf8').subarray(0, 2)];
    for (let i = 0; i < 2000; i += 1) {
      const valid = Buffer.from(['ok ', '中文', 'é', '😀', '\n'][i % 5]!.repeat(i % 7), 'utf8');
      samples.push(Buffer.concat([valid, Buffer.from(Array.from({ length: 1 + (i % 6) }, random)), valid]));
    }
    for (const bytes of samples) {
      let decodes = true;
      try {
        fatal.decode(bytes);
      } catch {
        decodes = false;
      }
      if (decodes) {
        expect(utf8Text(bytes)).toBe(bytes.toString('utf8'));
        continue;
      }
      let error: unknown;
      try {
        utf8Text(bytes);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InputEncodingError);
      const { offset, byte } = error as InputEncodingError;
      expect(() => fatal.decode(bytes.subarray(0, offset)), bytes.toString('hex')).not.toThrow();
      expect(bytes.subarray(offset).toString('utf8').startsWith('\ufffd'), bytes.toString('hex')).toBe(true);
      expect(byte).toBe(bytes[offset]);
    }
  });
});
