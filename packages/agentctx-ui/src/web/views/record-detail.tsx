import { useState } from 'preact/hooks';
import { getJson, postJson } from '../api.js';
import { Ago, ConfidenceBadge, ErrorNote, TypeBadge, useLoad } from '../components.js';
import { dateTime, sourceWords } from '../format.js';
import { chainTimeline } from '../timeline.js';
import type { ContextRecord, RecordDetail } from '../types.js';

export function SupersedeForm(props: {
  record: ContextRecord;
  project: string;
  onDone: (newId: string) => void;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState(props.record.title);
  const [body, setBody] = useState(props.record.body.replace(/\n\nWhy it changed: [\s\S]*$/, ''));
  const [rationale, setRationale] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="edit"
      aria-label="Supersede this record"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const res = await postJson<{ new_id: string }>(
            `/records/${encodeURIComponent(props.record.id)}/supersede`,
            { title, body, rationale },
            props.project,
          );
          props.onDone(res.new_id);
        } catch (err) {
          setError(err);
          setBusy(false);
        }
      }}
    >
      <p class="muted small">
        Editing never overwrites: the new version supersedes this one, which stays in history.
      </p>
      <label>
        Title
        <input
          name="title"
          value={title}
          maxLength={120}
          onInput={(e) => setTitle((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Body
        <textarea
          name="body"
          rows={6}
          value={body}
          onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <label>
        Why it changed <span class="muted">(optional)</span>
        <input
          name="rationale"
          value={rationale}
          onInput={(e) => setRationale((e.target as HTMLInputElement).value)}
        />
      </label>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save new version
        </button>
        <button type="button" class="ghost" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function RecordDetailView(props: {
  id: string;
  project: string;
  onChanged: (newId?: string) => void;
}) {
  const detail = useLoad(
    () => getJson<RecordDetail>(`/records/${encodeURIComponent(props.id)}`, { project: props.project }),
    `${props.project}/${props.id}`,
  );
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (detail.error) return <ErrorNote error={detail.error} />;
  if (!detail.data) return <p class="note">Loading…</p>;
  const { record: r, chain, files } = detail.data;
  const current = !r.superseded_at;
  const act = async (path: string, body: unknown) => {
    setError(null);
    try {
      await postJson(`/records/${encodeURIComponent(r.id)}/${path}`, body, props.project);
      detail.reload();
      props.onChanged();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <article class="record" aria-labelledby="record-title" data-record-id={r.id}>
      <div class="meta">
        <TypeBadge type={r.type} />
        <ConfidenceBadge confidence={r.confidence} />
        {r.pinned ? <span class="badge pin">pinned</span> : null}
        <span class="badge">{r.scope}</span>
        {!current && <span class="badge old">superseded</span>}
      </div>
      <h2 id="record-title">{r.title}</h2>
      {current && detail.data?.stale && (
        <p class="note stale" role="status">
          {detail.data.stale}. Check the code before relying on it; confirm it in Review if it still holds.
        </p>
      )}
      {!current && (
        <p class="note" role="status">
          Superseded <Ago iso={r.superseded_at} />
          {r.superseded_by && (
            <>
              {' '}
              by{' '}
              <a
                href={`#/records/${encodeURIComponent(chain[chain.length - 1]?.id ?? r.superseded_by)}?p=${props.project}&history=1`}
              >
                the current version
              </a>
            </>
          )}
          . It no longer surfaces in search, hooks or MCP.
        </p>
      )}
      {editing ? (
        <SupersedeForm
          record={r}
          project={props.project}
          onCancel={() => setEditing(false)}
          onDone={(newId) => {
            setEditing(false);
            props.onChanged(newId);
          }}
        />
      ) : (
        <div class="body">{r.body}</div>
      )}
      {current && !editing && (
        <div class="actions">
          <button type="button" onClick={() => setEditing(true)}>
            Edit (supersede)
          </button>
          <button
            type="button"
            class="ghost"
            aria-pressed={r.pinned === 1}
            onClick={() => act('pin', { pinned: r.pinned !== 1 })}
          >
            {r.pinned ? 'Unpin' : 'Pin'}
          </button>
          {r.confidence === 'inferred' && (
            <button
              type="button"
              class="ghost"
              onClick={() => act('confidence', { confidence: 'reinforced' })}
            >
              Confirm (mark reinforced)
            </button>
          )}
        </div>
      )}
      <ErrorNote error={error} />
      <dl class="facts">
        <dt>Recorded</dt>
        <dd>{dateTime(r.recorded_at)}</dd>
        <dt>Valid from</dt>
        <dd>{dateTime(r.valid_from)}</dd>
        <dt>Source</dt>
        <dd>{sourceWords(r.source)}</dd>
        <dt>Reinforced</dt>
        <dd>{r.reinforce_count}×</dd>
        <dt>Accessed</dt>
        <dd>
          {r.access_count}× {r.last_accessed ? <Ago iso={r.last_accessed} /> : null}
        </dd>
        <dt>Id</dt>
        <dd class="mono small">{r.id}</dd>
        {r.session_id && (
          <>
            <dt>Session</dt>
            <dd class="mono small">{r.session_id}</dd>
          </>
        )}
      </dl>
      {files.length > 0 && (
        <>
          <h3>Files</h3>
          <ul class="files mono small">
            {files.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      )}
      <h3>Supersession chain</h3>
      {chain.length <= 1 ? (
        <p class="muted small">This record has no earlier or later versions.</p>
      ) : (
        <ol class="chain timeline" data-testid="chain">
          {chainTimeline(chain).map((c) => (
            <li key={c.id} class={c.id === r.id ? 'here' : ''}>
              <a href={`#/records/${encodeURIComponent(c.id)}?p=${props.project}&history=1`}>{c.title}</a>{' '}
              <span class="muted small" data-testid="valid">
                valid {dateTime(c.from)} → {c.until ? dateTime(c.until) : 'now'}
                {c.closed ? ' (closed)' : ''} · {sourceWords(c.source)}
              </span>
              {c.why && <div class="small why">Why it changed: {c.why}</div>}
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
