import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { chineseOf, englishOf } from '../../src/shared/dictionary.js';
import { seedItems } from '../helpers/seed-items.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('Chinese-English dictionary on the query side (M-7.7)', () => {
  it('gives a Chinese word the English words of its short glosses and an English word the headwords it glosses alone', () => {
    expect(englishOf('快照')).toEqual(['snapshot']);
    expect(englishOf('水印')).toEqual(['watermark']);
    expect(chineseOf('snapshot')).toEqual(['快照']);
    expect(chineseOf('watermark')).toEqual(['水印']);
    // A word many headwords gloss is too ambiguous to stand for any of them.
    expect(chineseOf('record')).toEqual([]);
    expect(englishOf('的')).toEqual([]);
  });

  it('finds a memory said in the other language than the query, where no glossary family links the words', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: '数据库每天凌晨做一次快照', content: '数据库每天凌晨做一次快照，保留七份。' },
      { kind: 'project_decision', title: 'Exported PDFs carry a watermark', content: 'Every exported PDF carries a watermark.' },
      { kind: 'project_decision', title: 'Coupons cannot be stacked', content: 'Only one coupon per order.' },
    ]);
    const memory = MemoryManager.open({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    expect(memory.search(handle, 'database snapshot').map((h) => h.title)).toEqual(['数据库每天凌晨做一次快照']);
    expect(memory.search(handle, 'snapshot').map((h) => h.title)).toEqual(['数据库每天凌晨做一次快照']);
    expect(memory.search(handle, '水印').map((h) => h.title)).toEqual(['Exported PDFs carry a watermark']);
    // The dictionary adds forms, not hits: a word no memory has in either language still finds nothing.
    expect(memory.search(handle, '缩略图')).toEqual([]);
    expect(memory.search(handle, 'thumbnail')).toEqual([]);
    memory.failTurn(handle);
    await memory.close();
  });
});
