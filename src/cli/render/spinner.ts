import { safeLabel } from '../../shared/terminal-text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A one-line spinner on stderr, drawn only on a terminal: `⠹ thinking… 4s · Ctrl-C to cancel`. The
 * elapsed time counts from the first `start`; `update` changes the label without resetting it; `stop`
 * clears the line. The label can come from the model (a tool name), so it is neutralized; only the
 * spinner's own carriage return and line erase are written as control sequences.
 */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private label = '';
  private started = 0;

  constructor(
    private readonly control: (sequence: string) => void,
    private readonly enabled: boolean,
    private readonly hint = 'Ctrl-C to cancel',
    private readonly now: () => number = Date.now,
  ) {}

  start(label: string): void {
    this.label = safeLabel(label);
    if (this.started === 0) this.started = this.now();
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => this.draw(), 80);
    this.timer.unref();
  }

  update(label: string): void {
    this.label = safeLabel(label);
  }

  /** The line drawn now (without the carriage return); for tests. */
  line(): string {
    const seconds = Math.floor((this.now() - this.started) / 1000);
    return `${FRAMES[this.frame % FRAMES.length]} ${this.label} ${seconds}s · ${this.hint}`;
  }

  private draw(): void {
    this.frame += 1;
    this.control(`\r\u001b[2K${this.line()}`);
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.control('\r\u001b[2K');
  }
}
