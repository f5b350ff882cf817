/** The whole of a piped stdin as text. `onSlow` is called once if the input has not ended after `slowMs`. */
export async function readAllStdin(
  input: NodeJS.ReadableStream = process.stdin,
  slow?: { afterMs: number; onSlow: () => void },
): Promise<string> {
  const chunks: Buffer[] = [];
  const timer = slow ? setTimeout(slow.onSlow, slow.afterMs) : null;
  timer?.unref();
  try {
    for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  } finally {
    if (timer) clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The request of `cmd | autopatch-j ask "prompt"`: the prompt, then the piped text as a fenced block whose
 * fence is longer than any run of backticks inside it, so the text cannot close it early.
 */
export function withPipedText(prompt: string, piped: string): string {
  const text = piped.replace(/\s+$/, '');
  if (text.trim().length === 0) return prompt;
  if (prompt.trim().length === 0) return text;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${prompt}\n\n${fence}\n${text}\n${fence}`;
}
