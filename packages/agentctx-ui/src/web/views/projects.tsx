import { Ago, Empty, ErrorNote, type Loaded } from '../components.js';
import { int } from '../format.js';
import { href } from '../router.js';
import type { ProjectSummary } from '../types.js';

export function ProjectsView(props: {
  projects: Loaded<{ projects: ProjectSummary[] }>;
  current: string;
  onChange: () => void;
}) {
  const { data, error } = props.projects;
  return (
    <section aria-labelledby="projects-h">
      <div class="head">
        <h1 id="projects-h">Projects</h1>
        <button type="button" class="ghost" onClick={props.onChange}>
          Refresh
        </button>
      </div>
      <p class="muted">
        Every namespace in the store. Project names come from detected profiles; others show their id.
      </p>
      <ErrorNote error={error} />
      {data && data.projects.length === 0 && <Empty>Nothing stored yet.</Empty>}
      {data && data.projects.length > 0 && (
        <div class="table-wrap">
          <table class="projects">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col" class="num">
                  Records
                </th>
                <th scope="col" class="num">
                  Superseded
                </th>
                <th scope="col" class="num">
                  Sessions
                </th>
                <th scope="col">Last activity</th>
                <th scope="col">By type</th>
              </tr>
            </thead>
            <tbody>
              {data.projects.map((p) => (
                <tr key={p.id} class={p.id === props.current ? 'selected' : undefined}>
                  <th scope="row">
                    <a href={href('records', { params: { p: p.id } })}>{p.label}</a>
                    {p.current && <span class="tag">this folder</span>}
                    <div class="muted mono small">{p.global ? '_global' : `${p.id.slice(0, 16)}…`}</div>
                  </th>
                  <td class="num">{int(p.records)}</td>
                  <td class="num">{int(p.superseded)}</td>
                  <td class="num">{int(p.sessions)}</td>
                  <td>
                    <Ago iso={p.last_activity} />
                  </td>
                  <td class="small">
                    {Object.entries(p.counts_by_type)
                      .map(([t, n]) => `${t} ${n}`)
                      .join(' · ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
