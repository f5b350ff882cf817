import { safeLabel } from './safe-text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A one-line spinner on stderr, drawn only on a terminal. `stop` clears the line. The label can come from
 * the model (a tool name), so it is neutralized; only the spinner's own carriage return and line erase are
 * written as control sequences.
 */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(private readonly control: (sequence: string) => void, private readonly enabled: boolean) {}

  start(label: string): void {
    if (!this.enabled || this.timer) return;
    const shown = safeLabel(label);
    this.timer = setInterval(() => {
      this.control(`\r${FRAMES[this.frame++ % FRAMES.length]} ${shown}`);
    }, 80);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.control('\r\u001b[2K');
  }
}
