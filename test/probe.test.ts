import { it } from 'vitest';
import { P } from '../src/memory/pipeline/gate/phrases.js';
import { Span, fold } from '../src/memory/pipeline/gate/words.js';
it('p', () => {
  const t = fold('只要改了 proto 文件，就把生成的代码一起提交。');
  console.log(P.standing.find(new Span(t)), P.aboutAnswers.find(new Span(t)), P.compounds.find(new Span(t)));
  console.log([...new Intl.Segmenter('zh', { granularity: 'word' }).segment(t)].map((s) => s.segment).join('|'));
});
