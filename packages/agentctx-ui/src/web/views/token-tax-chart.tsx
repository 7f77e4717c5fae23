import { useRef } from 'preact/hooks';
import { useSize } from '../components.js';
import { dateOnly, dateTime, int } from '../format.js';
import type { SessionRow } from '../types.js';

const H = 170;
const PAD = { l: 48, r: 12, t: 12, b: 26 };

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/**
 * Tokens injected per session, oldest to newest: the "token tax" as bars in plain SVG, and over
 * each judged bar the part that went to records the session used. Drawn at the box's own pixel
 * width (not a scaled viewBox), so its 11 px labels stay 11 px on any screen, below the heading.
 * The caption is a legend built from what was drawn: a series is named only when it has marks.
 */
export function TokenTaxChart({ sessions }: { sessions: SessionRow[] }) {
  const box = useRef<HTMLDivElement>(null);
  const { w: W } = useSize(box);
  const rows = [...sessions].filter((s) => s.started_at).reverse();
  if (rows.length === 0) return null;
  const max = Math.max(1, ...rows.map((s) => s.tokens_injected));
  const usedOf = (s: SessionRow) => Math.min(s.usage?.tokens_used ?? 0, s.tokens_injected);
  const judged = rows.filter((s) => s.usage?.used_share != null).length;
  const usedBars = rows.filter((s) => usedOf(s) > 0).length;
  const iw = Math.max(0, W - PAD.l - PAD.r);
  const ih = H - PAD.t - PAD.b;
  const step = iw / rows.length;
  const bw = Math.max(2, Math.min(28, step - 2));
  const x = (i: number) => PAD.l + i * step + (step - bw) / 2;
  return (
    <figure class="chart">
      <div ref={box} style={{ height: `${H}px` }}>
        {W > 0 && (
          <svg
            width={W}
            height={H}
            viewBox={`0 0 ${W} ${H}`}
            role="img"
            aria-label={`Tokens injected per session, ${rows.length} sessions, at most ${max}`}
          >
            <line x1={PAD.l} y1={PAD.t + ih} x2={W - PAD.r} y2={PAD.t + ih} class="axis" />
            <text x={PAD.l - 6} y={PAD.t + 8} class="tick" text-anchor="end">
              {int(max)}
            </text>
            <text x={PAD.l - 6} y={PAD.t + ih} class="tick" text-anchor="end">
              0
            </text>
            {rows.map((s, i) => {
              const h = (s.tokens_injected / max) * ih;
              return (
                <rect key={s.session_id} x={x(i)} y={PAD.t + ih - h} width={bw} height={h} class="bar">
                  <title>
                    {dateTime(s.started_at)}: {int(s.tokens_injected)} tokens
                    {s.usage?.used_share != null ? `, ${pct(s.usage.used_share)} used` : ', not judged yet'}
                  </title>
                </rect>
              );
            })}
            {rows.map((s, i) => {
              const used = usedOf(s);
              if (used <= 0) return null;
              const h = (used / max) * ih;
              return (
                <rect
                  key={`${s.session_id}-used`}
                  x={x(i)}
                  y={PAD.t + ih - h}
                  width={bw}
                  height={h}
                  class="bar-used"
                >
                  <title>
                    {dateTime(s.started_at)}: {int(used)} tokens on records the session used
                  </title>
                </rect>
              );
            })}
            <text x={PAD.l} y={H - 8} class="tick">
              {dateOnly(rows[0]?.started_at)}
            </text>
            {dateOnly(rows[rows.length - 1]?.started_at) !== dateOnly(rows[0]?.started_at) && (
              <text x={W - PAD.r} y={H - 8} class="tick" text-anchor="end">
                {dateOnly(rows[rows.length - 1]?.started_at)}
              </text>
            )}
          </svg>
        )}
      </div>
      <figcaption class="muted small">
        <ul class="chart-legend">
          <li data-series="bar">
            <span class="swatch bar" /> tokens injected per session (SessionStart digest + prompt matches)
          </li>
          {usedBars > 0 && (
            <li data-series="bar-used">
              <span class="swatch bar-used" /> the part that went to records the session used, judged from its
              transcript after it ended
            </li>
          )}
        </ul>
        {usedBars === 0 && (
          <p data-testid="no-used-part">
            {judged === 0
              ? 'No session has been judged yet for which records it used (that happens after a session ends).'
              : judged === 1
                ? 'The one session judged so far used none of the records it was shown.'
                : `None of the ${int(judged)} sessions judged so far used the records they were shown.`}
          </p>
        )}
      </figcaption>
    </figure>
  );
}
