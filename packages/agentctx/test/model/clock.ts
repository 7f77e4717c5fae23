import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The preload that gives every agentctx process of the model test the virtual clock. */
export const CLOCK_PRELOAD = fileURLToPath(new URL('./clock-preload.cjs', import.meta.url));

/** Where the virtual clock of the model test starts: a fixed instant, so runs are reproducible. */
export const CLOCK_START = Date.parse('2031-03-02T09:00:00.000Z');

export type ClockMode = 'run' | 'tick';

/**
 * The test's side of the virtual clock (see clock-preload.cjs): a JSON file every agentctx
 * process reads on each `Date.now()`. `run` lets time flow at real speed from `base`; `tick`
 * advances one millisecond per read, so two identical runs see identical times.
 */
export class VirtualClock {
  readonly file: string;
  private base = CLOCK_START;
  private anchor = Date.now();
  private mode: ClockMode = 'run';

  constructor(dir: string) {
    this.file = join(dir, 'clock.json');
    this.set(this.base, 'run');
  }

  /** Virtual now, as the processes see it (in tick mode: the base, give or take their reads). */
  get now(): number {
    return this.mode === 'run' ? this.base + (Date.now() - this.anchor) : this.base;
  }

  set(base: number, mode: ClockMode = 'run'): void {
    this.base = base;
    this.anchor = Date.now();
    this.mode = mode;
    // the reader keeps its last good setting when it catches the file half-written
    writeFileSync(this.file, JSON.stringify({ base, anchor: this.anchor, mode }));
  }

  /** Move forward from virtual now by `ms` (at least a second: every step starts later). */
  advance(ms: number, mode: ClockMode = 'run'): void {
    this.set(this.now + Math.max(1000, Math.trunc(ms)), mode);
  }

  /** Env entries that load the clock into a child process. */
  env(): Record<string, string> {
    return { NODE_OPTIONS: `--require ${CLOCK_PRELOAD}`, AGENTCTX_TEST_CLOCK_FILE: this.file };
  }
}
