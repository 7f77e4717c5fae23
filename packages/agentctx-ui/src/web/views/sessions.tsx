import { getJson } from '../api.js';
import { Ago, Empty, ErrorNote, useLoad } from '../components.js';
import { dateTime, int, usd } from '../format.js';
import type { SessionRow, SessionsAnswer } from '../types.js';

const W = 640;
const H = 160;
const PAD = { l: 44, r: 10, t: 12, b: 24 };

function pct(share: number | null | undefined): string {
  return share === null || share === undefined ? '—' : `${Math.round(share * 100)}%`;
}

/**
 * Tokens injected per session, oldest to newest: the "token tax" as bars in plain SVG, and
 * over each bar the part that went to records the session used.
 */
function TokenTaxChart({ sessions }: { sessions: SessionRow[] }) {
  const rows = [...sessions].filter((s) => s.started_at).reverse();
  if (rows.length === 0) return null;
  const max = Math.max(1, ...rows.map((s) => s.tokens_injected));
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const bw = Math.max(2, Math.min(28, iw / rows.length - 2));
  const step = iw / rows.length;
  return (
    <figure class="chart">
      <svg
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
            <rect
              key={s.session_id}
              x={PAD.l + i * step + (step - bw) / 2}
              y={PAD.t + ih - h}
              width={bw}
              height={h}
              class="bar"
            >
              <title>
                {dateTime(s.started_at)}: {int(s.tokens_injected)} tokens
                {s.usage?.used_share != null ? `, ${pct(s.usage.used_share)} used` : ''}
              </title>
            </rect>
          );
        })}
        {rows.map((s, i) => {
          const used = Math.min(s.usage?.tokens_used ?? 0, s.tokens_injected);
          if (used <= 0) return null;
          const h = (used / max) * ih;
          return (
            <rect
              key={`${s.session_id}-used`}
              x={PAD.l + i * step + (step - bw) / 2}
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
        <text x={PAD.l} y={H - 6} class="tick">
          {dateTime(rows[0]?.started_at)}
        </text>
        <text x={W - PAD.r} y={H - 6} class="tick" text-anchor="end">
          {dateTime(rows[rows.length - 1]?.started_at)}
        </text>
      </svg>
      <figcaption class="muted small">
        Tokens injected per session (SessionStart digest + prompt matches); the green part went to records the
        session used, as judged from its transcript after it ended.
      </figcaption>
    </figure>
  );
}

export function SessionsView({ project }: { project: string }) {
  const res = useLoad(() => getJson<SessionsAnswer>('/sessions', { project }), project);
  const d = res.data;
  return (
    <section aria-labelledby="sessions-h">
      <div class="head">
        <h1 id="sessions-h">Sessions</h1>
      </div>
      <ErrorNote error={res.error} />
      {d && (
        <dl class="totals">
          <div>
            <dt>Sessions</dt>
            <dd data-testid="total-sessions">{int(d.totals.sessions)}</dd>
          </div>
          <div>
            <dt>Tokens injected</dt>
            <dd data-testid="total-tokens">{int(d.totals.tokens_injected)}</dd>
          </div>
          <div>
            <dt>Per session</dt>
            <dd>{d.totals.sessions ? int(Math.round(d.totals.tokens_injected / d.totals.sessions)) : '—'}</dd>
          </div>
          <div>
            <dt>Used</dt>
            <dd data-testid="total-used">{pct(d.totals.usage?.used_share)}</dd>
          </div>
          <div>
            <dt>Extraction cost</dt>
            <dd>{usd(d.totals.extraction_cost_usd)}</dd>
          </div>
        </dl>
      )}
      {d && d.sessions.length === 0 && <Empty>No sessions recorded for this project yet.</Empty>}
      {d && d.sessions.length > 0 && (
        <>
          <TokenTaxChart sessions={d.sessions} />
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Ended</th>
                  <th scope="col" class="num">
                    Tokens injected
                  </th>
                  <th scope="col" class="num">
                    Used
                  </th>
                  <th scope="col" class="num">
                    Extraction
                  </th>
                  <th scope="col">Session</th>
                </tr>
              </thead>
              <tbody>
                {d.sessions.map((s) => (
                  <tr key={s.session_id}>
                    <td>
                      <Ago iso={s.started_at} />
                    </td>
                    <td>{s.ended_at ? dateTime(s.ended_at) : '—'}</td>
                    <td class="num">{int(s.tokens_injected)}</td>
                    <td class="num" data-testid="used-share">
                      {pct(s.usage?.used_share)}
                    </td>
                    <td class="num">{usd(s.extraction_cost_usd)}</td>
                    <td class="mono small">{s.session_id}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
