import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../../src/index.js';
import { GLOSSARY } from '../../src/shared/search-glossary.js';
import {
  CONCEPT_MARK,
  EN_STOPWORDS,
  GENERIC_WEIGHT,
  ZH_STOPWORDS,
  startsCjk,
  stemWord,
  wordGroups,
} from '../../src/shared/search-words.js';
import { seedItems } from '../helpers/seed-items.js';
import { tempRepo } from '../helpers/temp-repo.js';

const conceptOf = (forms: readonly string[]): string => CONCEPT_MARK + forms[0]!.toLowerCase().replace(/[\s-]+/gu, '_');
const conceptsIn = (text: string): Set<string> =>
  new Set(wordGroups(text).flatMap((g) => [g.term, ...g.alternatives].filter((t) => t.startsWith(CONCEPT_MARK))));

describe('developer-terms glossary (M-7.7)', () => {
  it('is a closed vocabulary: every form names one concept, none is a stop word or a general word, each finds its concept', () => {
    const owner = new Map<string, string>();
    for (const forms of GLOSSARY) {
      const concept = conceptOf(forms);
      for (const form of forms) {
        // The same words (after stemming) in two concepts would make the table ambiguous.
        const words = form.split(/[\s\-_./]+/u).map((w) => stemWord(w.toLowerCase()));
        const key = startsCjk(form) ? form : words.join(' ') + (/^\p{Lu}+$/u.test(form) ? ' (capitals)' : '');
        expect(owner.get(key) ?? concept, `${form} in ${owner.get(key)} and ${concept}`).toBe(concept);
        owner.set(key, concept);
        expect(EN_STOPWORDS.has(form) || ZH_STOPWORDS.has(form), form).toBe(false);
        const groups = wordGroups(form);
        expect(
          groups.some((g) => g.weight === 1),
          `${form} is only general words`,
        ).toBe(true);
        // Said alone, a form stands for its concept (a Chinese form lies on the segmenter's word boundaries).
        expect(conceptsIn(form).has(concept), `${form} → ${concept}`).toBe(true);
      }
    }
    expect(GENERIC_WEIGHT).toBeLessThan(1);
  });

  it('meets its forms across languages and abbreviations, and only where a form is a whole word', () => {
    expect(conceptsIn('db migration tool')).toEqual(new Set(['=database', '=migration']));
    expect(conceptsIn('数据库迁移')).toEqual(new Set(['=database', '=migration']));
    expect(conceptsIn('单测怎么写')).toEqual(new Set(['=unit_test']));
    // Inside another word, or a capitals-only form in lower case, a form is not said.
    expect(conceptsIn('简单测试一下')).toEqual(new Set(['=test']));
    expect(conceptsIn('用单测量一下').has('=unit_test'), '单|测量').toBe(false);
    expect(conceptsIn('it is what it is')).toEqual(new Set());
    expect(conceptsIn('cd into the folder')).toEqual(new Set(['=directory']));
    expect(conceptsIn('the page layout')).toEqual(new Set());
    // The longer form that starts at the same place wins: a producer is not production.
    expect(conceptsIn('消息的生产者')).toEqual(new Set(['=message', '=producer']));
    expect(conceptsIn('生产环境')).toEqual(new Set(['=production', '=environment']));
    // An identifier part or a whole identifier may be a form.
    expect(conceptsIn('RocketMQ')).toEqual(new Set(['=message_queue']));
    expect(conceptsIn('E2E tests')).toEqual(new Set(['=end_to_end_test', '=test']));
    // A form that ends in another concept's form keeps that concept too; a capitals-only form is not its lower case.
    expect(conceptsIn('三次握手')).toEqual(new Set(['=three_way_handshake', '=handshake']));
    expect(conceptsIn('three-way handshake')).toEqual(new Set(['=three_way_handshake', '=handshake']));
    expect(conceptsIn('跨站脚本攻击').has('=cross_site_scripting')).toBe(true);
    expect(conceptsIn('XSS')).toEqual(new Set(['=cross_site_scripting']));
    expect(conceptsIn('SLA 99.9')).toEqual(new Set(['=service_level_agreement']));
    expect(conceptsIn('AZ')).toEqual(new Set(['=availability_zone']));
    expect(conceptsIn('az login')).toEqual(new Set(['=login']));
    expect(conceptsIn('on-call rotation')).toEqual(new Set(['=oncall']));
    expect(conceptsIn('N+1 queries')).toEqual(new Set(['=n_1_query', '=query']));
    expect(conceptsIn('循环依赖')).toEqual(new Set(['=circular_dependency', '=dependency']));
    expect(conceptsIn('依赖冲突')).toEqual(new Set(['=dependency', '=conflict']));
    expect(conceptsIn('QA')).toEqual(new Set(['=quality_assurance']));
    expect(conceptsIn('qa')).toEqual(new Set());
    // Whether a thing is allowed: a rule that forbids it answers the question, in either language.
    expect(conceptsIn('are retries allowed here').has('=allowed')).toBe(true);
    expect(conceptsIn('生产库禁止直接改数据').has('=allowed')).toBe(true);
    expect(conceptsIn('能不能在 handler 里不许 sleep').has('=allowed')).toBe(true);
    // Everyday code work in both languages.
    expect(conceptsIn('troubleshoot the slow checkout page').has('=troubleshooting')).toBe(true);
    expect(conceptsIn('排查一下登录超时')).toEqual(new Set(['=troubleshooting', '=login', '=timeout']));
    expect(conceptsIn('the admin panel 表格')).toEqual(new Set(['=admin_console']));
    expect(conceptsIn('进程内缓存的大小').has('=local_cache')).toBe(true);
    expect(conceptsIn('a local cache for prices').has('=local_cache')).toBe(true);
    // A remark in code is a comment; interactive, integration, numbering and the next day in both languages.
    expect(conceptsIn('remarks above the handler').has('=comment')).toBe(true);
    expect(conceptsIn('报表要能交互').has('=interactive')).toBe(true);
    expect(conceptsIn('interactive maps').has('=interactive')).toBe(true);
    expect(conceptsIn('集成支付 SDK').has('=integration')).toBe(true);
    expect(conceptsIn('integrate the payment SDK').has('=integration')).toBe(true);
    expect(conceptsIn('工单编号规则').has('=numbering')).toBe(true);
    expect(conceptsIn('ticket numbering').has('=numbering')).toBe(true);
    expect(conceptsIn('账单次日生成').has('=next_day')).toBe(true);
    expect(conceptsIn('invoices are issued the following day').has('=next_day')).toBe(true);
    // A longer form keeps its own concept: an integration test is not the bare word.
    expect(conceptsIn('集成测试').has('=integration')).toBe(false);
  });

  it('never creates a hit for an unrelated memory: an English form finds only memories saying one of its Chinese forms', async () => {
    // One memory per concept, said only in Chinese; every English form is searched. A hit is allowed only
    // where the memory's text holds a Chinese form of a concept the query names (so "unit test" may find the
    // memory that says 测试, a part of 单元测试), never elsewhere.
    const withChinese = GLOSSARY.filter((forms) => forms.some((f) => startsCjk(f)));
    const chinese = (forms: readonly string[]): string[] => forms.filter((f) => startsCjk(f));
    const repo = tempRepo();
    seedItems(
      repo,
      withChinese.map((forms) => ({
        kind: 'project_decision' as const,
        title: chinese(forms).join('，'),
        content: chinese(forms).join('。'),
      })),
    );
    const memory = MemoryManager.open({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    const conceptForms = new Map(GLOSSARY.map((forms) => [conceptOf(forms), chinese(forms)]));
    let found = 0;
    for (const forms of withChinese) {
      for (const form of forms.filter((f) => !startsCjk(f))) {
        const named = [...conceptsIn(form)].flatMap((c) => conceptForms.get(c) ?? []);
        const hits = memory.search(handle, form);
        for (const hit of hits)
          expect(
            named.some((zh) => hit.title.includes(zh)),
            `${form} → ${hit.title}`,
          ).toBe(true);
        if (hits.some((h) => h.title === chinese(forms).join('，'))) found += 1;
      }
    }
    // And the memory of the form's own concept is found (nearly always first of at most 5).
    const englishForms = withChinese.reduce((n, forms) => n + forms.filter((f) => !startsCjk(f)).length, 0);
    expect(found / englishForms).toBeGreaterThan(0.95);
    memory.failTurn(handle);
    await memory.close();
  });

  it('near misses find nothing: a form inside a longer word, a lower-case acronym, a stem of another word', async () => {
    const repo = tempRepo();
    seedItems(repo, [
      { kind: 'project_decision', title: 'Simple checks before pushing', content: '简单检查一下再推。' },
      { kind: 'project_decision', title: 'Keep it simple', content: 'It is what it is.' },
      { kind: 'project_decision', title: 'Page layout uses a grid', content: 'Every page has a header.' },
      { kind: 'project_decision', title: '消息的生产者要带 trace id', content: '生产者发送前写日志。' },
    ]);
    const memory = MemoryManager.open({ repoRoot: repo });
    const handle = memory.beginTurn({ intent: 'general_chat', userText: 'probe' });
    expect(memory.search(handle, 'unit test')).toEqual([]);
    expect(memory.search(handle, 'static analysis')).toEqual([]);
    expect(memory.search(handle, 'IT')).toEqual([]);
    expect(memory.search(handle, 'integration test')).toEqual([]);
    expect(memory.search(handle, 'pagination')).toEqual([]);
    expect(memory.search(handle, 'production')).toEqual([]);
    expect(memory.search(handle, 'producer').map((h) => h.title)).toEqual(['消息的生产者要带 trace id']);
    memory.failTurn(handle);
    await memory.close();
  });
});
