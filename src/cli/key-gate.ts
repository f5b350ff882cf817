import { EventEmitter } from 'node:events';
import { StringDecoder } from 'node:string_decoder';

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';
/** Alt+Enter, and Shift+Enter where the terminal reports it (kitty, xterm modifyOtherKeys). */
const NEWLINE_KEYS = ['\u001b\r', '\u001b\n', '\u001b[13;2u', '\u001b[27;2;13~'];
const MARKERS = [PASTE_START, PASTE_END, ...NEWLINE_KEYS];

/**
 * Stands between the terminal and readline. readline edits one line; the gate decides what reaches it:
 * a newline inside a bracketed paste or from Alt/Shift+Enter arrives as a continuation (`continuing` is
 * true while readline handles it), Ctrl-C becomes an `interrupt` event instead of a keypress, and while
 * `busy` (a request runs) every key is held — a lone Esc emits `cancel` — and replayed by `release()`.
 */
export class KeyGate extends EventEmitter {
  readonly isTTY = true;
  busy = false;
  /** True while readline processes a newline that continues the request instead of sending it. */
  continuing = false;
  private held = '';
  private pasting = false;
  /** The start of a marker cut off at the end of a chunk (a large paste arrives in pieces). */
  private carry = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly onData = (chunk: Buffer | string): void => this.receive(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
  private readonly onEnd = (): void => {
    this.emit('end');
  };

  constructor(private readonly stdin: NodeJS.ReadStream) {
    super();
  }

  /** readline switches raw mode through its input; the real terminal gets it. */
  setRawMode(mode: boolean): this {
    if (typeof this.stdin.setRawMode === 'function') this.stdin.setRawMode(mode);
    return this;
  }

  // The gate owns the flow of stdin; readline's pause and resume do not stop it.
  pause(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  start(): void {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.resume();
    process.stdout.write('\u001b[?2004h');
  }

  stop(): void {
    process.stdout.write('\u001b[?2004l');
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.setRawMode(false);
    this.stdin.pause();
  }

  /** Replays the keys typed while busy, as if typed now. */
  release(): void {
    const held = this.held;
    this.held = '';
    if (held.length > 0) this.receive(held);
  }

  /** Text from the terminal (exposed for tests). */
  receive(chunk: string): void {
    const text = this.carry + chunk;
    this.carry = '';
    if (this.busy) {
      this.hold(text);
      return;
    }
    let plain = '';
    const flush = (): void => {
      if (plain.length > 0) this.emit('data', plain);
      plain = '';
    };
    for (let i = 0; i < text.length;) {
      if (this.busy) {
        this.hold(text.slice(i));
        return;
      }
      if (text.startsWith(PASTE_START, i)) {
        flush();
        this.pasting = true;
        i += PASTE_START.length;
        continue;
      }
      if (text.startsWith(PASTE_END, i)) {
        flush();
        this.pasting = false;
        i += PASTE_END.length;
        continue;
      }
      const ch = text[i]!;
      if (ch === '\u001b' && MARKERS.some((m) => m.length > text.length - i && m.startsWith(text.slice(i)))) {
        this.carry = text.slice(i);
        break;
      }
      if (this.pasting) {
        if (ch === '\r' || ch === '\n') {
          flush();
          this.enter(true);
          i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
          continue;
        }
        // A tab in a paste is text, not a completion request.
        plain += ch === '\t' ? '  ' : ch;
        i += 1;
        continue;
      }
      const newline = NEWLINE_KEYS.find((k) => text.startsWith(k, i));
      if (newline) {
        flush();
        this.enter(true);
        i += newline.length;
        continue;
      }
      if (ch === '\u0003') {
        flush();
        this.emit('interrupt');
        i += 1;
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        flush();
        this.enter(false);
        i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
        continue;
      }
      plain += ch;
      i += 1;
    }
    flush();
  }

  private enter(continuing: boolean): void {
    this.continuing = continuing;
    try {
      this.emit('data', '\r');
    } finally {
      this.continuing = false;
    }
  }

  private hold(text: string): void {
    if (text === '\u001b') {
      this.emit('cancel');
      return;
    }
    for (const ch of text) {
      if (ch === '\u0003') this.emit('interrupt');
      else this.held += ch;
    }
  }
}
