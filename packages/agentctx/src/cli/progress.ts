/**
 * A one-line progress bar with an ETA, for the long operations (model download, embedding
 * backfill, a first consolidation of a big store). Drawn on stderr and only on a terminal:
 * piped output and --json never see it. Redrawn at most ten times a second.
 */

interface Progress {
  /** `done` of `total` units for `label` (a new label restarts the ETA). */
  update(label: string, done: number, total: number): void;
  /** Clear the line. */
  end(): void;
}

const WIDTH = 20;

/** m:ss (or h:mm:ss) for an ETA in seconds. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The bar's text for `done` of `total`, `elapsedMs` after the label started. */
export function progressLine(label: string, done: number, total: number, elapsedMs: number): string {
  const frac = total > 0 ? Math.max(0, Math.min(1, done / total)) : 0;
  const filled = Math.round(frac * WIDTH);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}`;
  const pct = `${String(Math.round(frac * 100)).padStart(3)}%`;
  // an estimate needs a second of history and some progress
  const eta =
    frac > 0 && frac < 1 && elapsedMs >= 1000
      ? ` ETA ${formatEta(((elapsedMs / frac) * (1 - frac)) / 1000)}`
      : '';
  return `${label} [${bar}] ${pct} ${done}/${total}${eta}`;
}

export function createProgress(opts: {
  write: (s: string) => void;
  enabled: boolean;
  now?: () => number;
}): Progress {
  const now = opts.now ?? Date.now;
  let label = '';
  let started = 0;
  let drawn = 0;
  let visible = false;
  return {
    update(l, done, total) {
      if (!opts.enabled) return;
      const t = now();
      if (l !== label) {
        label = l;
        started = t;
      } else if (done < total && t - drawn < 100) return;
      drawn = t;
      visible = true;
      opts.write(`\r\x1b[2K${progressLine(label, done, total, t - started)}`);
    },
    end() {
      if (visible) opts.write('\r\x1b[2K');
      visible = false;
    },
  };
}
