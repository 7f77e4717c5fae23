import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { Ago, ConfidenceBadge, Empty, ErrorNote, TypeBadge, useLoad } from '../components.js';
import { href, navigate, type Route } from '../router.js';
import type { Meta, RecordsAnswer } from '../types.js';
import { RecordDetailView } from './record-detail.js';

const FILTERS = ['q', 'type', 'scope', 'conf', 'history'] as const;

export function RecordsView({ route, project, meta }: { route: Route; project: string; meta: Meta }) {
  const p = Object.fromEntries(FILTERS.map((k) => [k, route.params.get(k) ?? ''])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const [draft, setDraft] = useState(p.q);
  const [tick, setTick] = useState(0);
  useEffect(() => setDraft(p.q), [p.q]);
  const list = useLoad(
    () =>
      getJson<RecordsAnswer>('/records', {
        project,
        q: p.q,
        type: p.type,
        scope: p.scope,
        confidence: p.conf,
        history: p.history ? '1' : undefined,
      }),
    JSON.stringify([project, p, tick]),
  );
  const params = (extra: Partial<Record<string, string>> = {}) => ({ ...p, p: project, ...extra });
  const setFilter = (key: string, value: string) =>
    navigate(href('records', { id: route.id, params: params({ [key]: value }) }));

  return (
    <section class={`records ${route.id ? 'has-detail' : ''}`} aria-labelledby="records-h">
      <div class="list-pane">
        <div class="head">
          <h1 id="records-h">Records</h1>
          {list.data && (
            <span class="muted" data-testid="record-count">
              {list.data.records.length} shown
            </span>
          )}
        </div>
        <form
          class="filters"
          aria-label="Search and filter records"
          onSubmit={(e) => {
            e.preventDefault();
            setFilter('q', draft.trim());
          }}
        >
          <label class="grow">
            <span class="sr">Search records</span>
            <input
              type="search"
              name="q"
              placeholder="Search titles and bodies (full-text)"
              value={draft}
              onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit">Search</button>
          <label>
            <span class="sr">Type</span>
            <select
              name="type"
              value={p.type}
              onChange={(e) => setFilter('type', (e.target as HTMLSelectElement).value)}
            >
              <option value="">All types</option>
              {meta.types.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span class="sr">Scope</span>
            <select
              name="scope"
              value={p.scope}
              onChange={(e) => setFilter('scope', (e.target as HTMLSelectElement).value)}
            >
              <option value="">Project + global</option>
              <option value="project">Project only</option>
              <option value="global">Global only</option>
            </select>
          </label>
          <label>
            <span class="sr">Confidence</span>
            <select
              name="conf"
              value={p.conf}
              onChange={(e) => setFilter('conf', (e.target as HTMLSelectElement).value)}
            >
              <option value="">Any confidence</option>
              {meta.confidences.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label class="check">
            <input
              type="checkbox"
              name="history"
              checked={p.history === '1'}
              onChange={(e) => setFilter('history', (e.target as HTMLInputElement).checked ? '1' : '')}
            />{' '}
            History
          </label>
        </form>
        {list.data?.degraded && <p class="note">Search is degraded ({list.data.degraded}).</p>}
        <ErrorNote error={list.error} />
        {list.data && list.data.records.length === 0 && (
          <Empty>{p.q ? `Nothing matches “${p.q}”.` : 'No records with these filters.'}</Empty>
        )}
        <ul class="record-list" aria-busy={list.loading}>
          {list.data?.records.map((r) => (
            <li key={r.id} class={`${r.superseded_at ? 'old' : ''} ${r.id === route.id ? 'active' : ''}`}>
              <a href={href('records', { id: r.id, params: params() })} data-id={r.id}>
                <span class="title">{r.title}</span>
                <span class="meta">
                  <TypeBadge type={r.type} />
                  <ConfidenceBadge confidence={r.confidence} />
                  {r.pinned ? <span class="badge pin">pinned</span> : null}
                  {r.scope === 'global' ? <span class="badge">global</span> : null}
                  {r.superseded_at ? <span class="badge old">superseded</span> : null}
                  {r.stale ? (
                    <span class="badge stale" title={r.stale}>
                      may be outdated
                    </span>
                  ) : null}
                  <Ago iso={r.recorded_at} />
                </span>
              </a>
            </li>
          ))}
        </ul>
      </div>
      {route.id && (
        <div class="detail-pane">
          <a class="back" href={href('records', { params: params() })}>
            ← All records
          </a>
          <RecordDetailView
            key={route.id}
            id={route.id}
            project={project}
            onChanged={(newId) => {
              setTick((t) => t + 1);
              if (newId) navigate(href('records', { id: newId, params: params() }));
            }}
          />
        </div>
      )}
    </section>
  );
}
