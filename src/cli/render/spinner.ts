const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A one-line spinner on stderr, drawn only on a terminal. `stop` clears the line. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(private readonly write: (text: string) => void, private readonly enabled: boolean) {}

  start(label: string): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => {
      this.write(`\r${FRAMES[this.frame++ % FRAMES.length]} ${label}`);
    }, 80);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.write('\r\u001b[2K');
  }
}
