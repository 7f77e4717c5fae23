import { getJson } from '../api.js';
import { Ago, Empty, ErrorNote, useLoad } from '../components.js';
import { int, usd } from '../format.js';
import type { SessionsAnswer } from '../types.js';
import { TokenTaxChart } from './token-tax-chart.js';

function pct(share: number | null | undefined): string {
  return share === null || share === undefined ? '—' : `${Math.round(share * 100)}%`;
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
                    <td>
                      <Ago iso={s.ended_at} />
                    </td>
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
