import { useState } from 'preact/hooks';
import { getJson, postJson } from '../api.js';
import { Ago, ConfidenceBadge, Empty, ErrorNote, TypeBadge, useLoad } from '../components.js';
import { href } from '../router.js';
import type { ContextRecord } from '../types.js';
import { SupersedeForm } from './record-detail.js';

export function ProfileView() {
  const list = useLoad(() => getJson<{ records: ContextRecord[] }>('/profile'), 'profile');
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const records = list.data?.records ?? [];
  return (
    <section aria-labelledby="profile-h">
      <div class="head">
        <h1 id="profile-h">Global profile</h1>
      </div>
      <p class="muted">
        How you work, across every project. Inferred preferences become <em>reinforced</em> after repeated
        sightings; only reinforced and explicit ones reach the session digest.
      </p>
      <ErrorNote error={list.error ?? error} />
      {list.data && records.length === 0 && <Empty>No global preferences yet.</Empty>}
      <ul class="profile-list">
        {records.map((r) => (
          <li key={r.id}>
            <div class="meta">
              <TypeBadge type={r.type} />
              <ConfidenceBadge confidence={r.confidence} />
              <span class="muted small">
                seen {r.reinforce_count + 1}× · <Ago iso={r.recorded_at} />
              </span>
            </div>
            <h2 class="h3">
              <a href={href('records', { id: r.id, params: { p: '_global' } })}>{r.title}</a>
            </h2>
            {editing === r.id ? (
              <SupersedeForm
                record={r}
                project="_global"
                onCancel={() => setEditing(null)}
                onDone={() => {
                  setEditing(null);
                  list.reload();
                }}
              />
            ) : (
              <>
                <div class="body">{r.body}</div>
                <div class="actions">
                  <button type="button" class="ghost" onClick={() => setEditing(r.id)}>
                    Edit
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      {records.length > 0 && (
        <div class="danger">
          {confirming ? (
            <>
              <span>Delete every global preference? This cannot be undone.</span>{' '}
              <button
                type="button"
                class="danger-btn"
                onClick={async () => {
                  setError(null);
                  try {
                    await postJson('/profile/clear', { confirm: true });
                    setConfirming(false);
                    list.reload();
                  } catch (err) {
                    setError(err);
                  }
                }}
              >
                Yes, clear it
              </button>{' '}
              <button type="button" class="ghost" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" class="ghost" onClick={() => setConfirming(true)}>
              Clear global profile…
            </button>
          )}
        </div>
      )}
    </section>
  );
}
