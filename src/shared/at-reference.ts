/**
 * Where an `@` starts a reference to a file or folder (`@src/calc.js`): anywhere but inside a word, an
 * e-mail address or a path — at the start, after a space, and right after Chinese text or full-width
 * punctuation ("解释一下@src/calc.js"), not after a Latin letter, a digit or one of `_ . + - / @ \`
 * ("dev@example.com"). The request (agent) and Tab completion (cli) read references with it alike.
 */
export const REFERENCE_START = String.raw`(?<![\p{Script=Latin}\p{Nd}_.+\-/@\\])@`;
