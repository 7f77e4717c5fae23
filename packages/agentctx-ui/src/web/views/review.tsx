import { useEffect, useState } from 'preact/hooks';
import { getJson, postJson } from '../api.js';
import { Empty, ErrorNote, useLoad } from '../components.js';
import { href } from '../router.js';
import type { ReviewAnswer, ReviewItemView } from '../types.js';

type Action = ReviewItemView['actions'][number];
const KEY_OF: Record<string, Action> = { c: 'confirm', s: 'supersede', m: 'merge', d: 'dismiss' };
const LABEL: Record<Action, string> = {
  confirm: 'Confirm',
  supersede: 'Supersede',
  merge: 'Merge',
  dismiss: 'Dismiss',
  choose: 'Keep version',
};
const KIND: Record<ReviewItemView['kind'], string> = {
  conflict: 'team conflict',
  team: 'team file',
  stale: 'may be outdated',
  duplicate: 'near-duplicates',
  inferred: 'unconfirmed',
};

function SupersedeFields(props: {
  onSubmit: (body: string, rationale: string) => void;
  onCancel: () => void;
}) {
  const [body, setBody] = useState('');
  const [rationale, setRationale] = useState('');
  return (
    <form
      class="edit"
      aria-label="New version"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(body, rationale);
      }}
    >
      <label>
        New text
        <textarea name="body" value={body} onInput={(e) => setBody(e.currentTarget.value)} rows={4} />
      </label>
      <label>
        Why it changed
        <input name="rationale" value={rationale} onInput={(e) => setRationale(e.currentTarget.value)} />
      </label>
      <div class="actions">
        <button type="submit">Save new version</button>
        <button type="button" class="ghost" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * What needs a human, one item at a time: the queue of `agentctx review`, answered with a button
 * or its key (c, s, m, d; n for next) through the same services as the CLI.
 */
export function ReviewView({ project }: { project: string }) {
  const res = useLoad(() => getJson<ReviewAnswer>('/review', { project }), project);
  const [index, setIndex] = useState(0);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(0);
  const items = res.data?.items ?? [];
  const item = items[Math.min(index, Math.max(0, items.length - 1))];

  const answer = async (action: Action, extra: Record<string, string> = {}) => {
    if (!item?.actions.includes(action)) return;
    if (action === 'supersede' && !extra.rationale) {
      setEditing(true);
      return;
    }
    setError(null);
    try {
      await postJson('/review/act', { key: item.key, action, ...extra }, project);
      setEditing(false);
      setDone((n) => n + 1);
      res.reload();
    } catch (err) {
      setError(err);
    }
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (editing || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName)) return;
      if (e.key === 'n') setIndex((i) => (items.length ? (i + 1) % items.length : 0));
      const action = KEY_OF[e.key];
      if (action) void answer(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <section aria-labelledby="review-h">
      <div class="head">
        <h1 id="review-h">Review</h1>
        <span class="muted small" data-testid="review-count">
          {items.length} waiting{done ? ` · ${done} answered` : ''}
        </span>
      </div>
      <p class="muted">
        Unconfirmed records, records whose files changed since, near-duplicates and team-file changes. Keys:{' '}
        <kbd>c</kbd> confirm, <kbd>s</kbd> supersede, <kbd>m</kbd> merge, <kbd>d</kbd> dismiss, <kbd>n</kbd>{' '}
        next. Each answer runs the same service as the CLI command shown.
      </p>
      <ErrorNote error={res.error} />
      {res.data && !res.data.available && <p class="note">{res.data.reason}</p>}
      {res.data?.available && !item && <Empty>Nothing to review.</Empty>}
      {item && (
        <article class="review-item" data-key={item.key} aria-label="Review item">
          <div class="meta">
            <span class={`badge review-${item.kind}`}>{KIND[item.kind]}</span>
            <span class="muted small">
              {Math.min(index, items.length - 1) + 1} of {items.length}
            </span>
          </div>
          <h2>{item.title}</h2>
          <pre class="review-detail">{item.detail}</pre>
          {(item.bodies ?? []).map((b, i) => (
            <blockquote key={item.record_ids[i]} class="review-body">
              {b}
            </blockquote>
          ))}
          {item.record_ids.length > 0 && (
            <p class="small">
              {item.record_ids.map((id) => (
                <a key={id} class="mono" href={href('records', { id, params: { p: project } })}>
                  {id}{' '}
                </a>
              ))}
            </p>
          )}
          {editing ? (
            <SupersedeFields
              onSubmit={(body, rationale) => void answer('supersede', { body, rationale })}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <div class="actions">
              {/* a team conflict: one button per version, numbered as the detail lists them */}
              {item.actions.includes('choose') &&
                item.record_ids.map((_, i) => (
                  <button
                    key={`v${i}`}
                    type="button"
                    onClick={() => void answer('choose', { version: String(i + 1) })}
                  >
                    {LABEL.choose} {i + 1}
                  </button>
                ))}
              {item.actions
                .filter((a) => a !== 'choose')
                .map((a) => (
                  <button
                    key={a}
                    type="button"
                    class={a === 'dismiss' ? 'ghost' : ''}
                    title={item.commands[a]}
                    onClick={() => void answer(a)}
                  >
                    {LABEL[a]} <kbd>{a[0]}</kbd>
                  </button>
                ))}
              <button type="button" class="ghost" onClick={() => setIndex((i) => (i + 1) % items.length)}>
                Next <kbd>n</kbd>
              </button>
            </div>
          )}
          <ErrorNote error={error} />
        </article>
      )}
    </section>
  );
}
