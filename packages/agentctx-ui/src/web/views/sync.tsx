import { getJson } from '../api.js';
import { Empty, ErrorNote, useLoad } from '../components.js';
import { href } from '../router.js';
import type { SyncAnswer } from '../types.js';

function DiffBlock({ diff }: { diff: string }) {
  return (
    <pre class="diff">
      {diff.split('\n').map((line, i) => (
        <span
          key={i}
          class={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'add'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'del'
                : ''
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function SyncView({ project }: { project: string }) {
  const res = useLoad(() => getJson<SyncAnswer>('/sync', { project }), project);
  const d = res.data;
  return (
    <section aria-labelledby="sync-h">
      <div class="head">
        <h1 id="sync-h">CLAUDE.md sync</h1>
        <button type="button" class="ghost" onClick={res.reload}>
          Re-check
        </button>
      </div>
      <p class="muted">
        Decisions and conventions the store holds but CLAUDE.md does not say, and lines CLAUDE.md still holds
        that were superseded. Nothing is written: apply the diff yourself (<code>git apply</code>) if you
        agree.
      </p>
      <ErrorNote error={res.error} />
      {d && !d.available && <p class="note">{d.reason}</p>}
      {d?.available && (
        <>
          <p class="small muted">
            Read: {d.report.files.length ? d.report.files.join(', ') : 'no CLAUDE.md found'} in {d.root}
          </p>
          <h2>Missing from CLAUDE.md ({d.report.total.missing})</h2>
          {d.report.missing.length === 0 ? (
            <Empty>Every confirmed decision and convention is there.</Empty>
          ) : (
            <ul class="drift">
              {d.report.missing.map((m) => (
                <li key={m.record_id}>
                  <a href={href('records', { id: m.record_id, params: { p: project } })}>{m.title}</a>{' '}
                  <span class="muted small">
                    {m.type} · {m.reason}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <h2>Contradicted ({d.report.total.contradicted})</h2>
          {d.report.contradicted.length === 0 ? (
            <Empty>Nothing in CLAUDE.md matches a superseded record.</Empty>
          ) : (
            <ul class="drift">
              {d.report.contradicted.map((m) => (
                <li key={`${m.record_id}-${m.line}`}>
                  <span class="mono small">
                    {m.file}:{m.line}
                  </span>{' '}
                  {m.excerpt} <span class="muted small">— {m.reason}</span>
                  {m.current_id && (
                    <>
                      {' '}
                      →{' '}
                      <a href={href('records', { id: m.current_id, params: { p: project } })}>
                        {m.current_title}
                      </a>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          <h2>Proposed diff</h2>
          {d.report.proposed_diff ? (
            <DiffBlock diff={d.report.proposed_diff} />
          ) : (
            <Empty>No changes proposed.</Empty>
          )}
        </>
      )}
    </section>
  );
}
