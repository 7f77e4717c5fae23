import { getJson } from './api.js';
import { ErrorNote, useLoad } from './components.js';
import { href, useRoute, type View } from './router.js';
import type { Meta, ProjectSummary } from './types.js';
import { GraphView } from './views/graph.js';
import { ProfileView } from './views/profile.js';
import { ProjectsView } from './views/projects.js';
import { RecordsView } from './views/records.js';
import { ReviewView } from './views/review.js';
import { SessionsView } from './views/sessions.js';
import { SyncView } from './views/sync.js';

const NAV: { view: View; label: string }[] = [
  { view: 'projects', label: 'Projects' },
  { view: 'records', label: 'Records' },
  { view: 'review', label: 'Review' },
  { view: 'graph', label: 'Graph' },
  { view: 'profile', label: 'Profile' },
  { view: 'sessions', label: 'Sessions' },
  { view: 'sync', label: 'Sync' },
];

export function App() {
  const route = useRoute();
  const meta = useLoad(() => getJson<Meta>('/meta'), 'meta');
  const projects = useLoad(() => getJson<{ projects: ProjectSummary[] }>('/projects'), 'projects');
  if (meta.error) return <ErrorNote error={meta.error} />;
  if (!meta.data) return <p class="note">Loading…</p>;
  const project = route.params.get('p') || meta.data.current.id;
  const summary = projects.data?.projects.find((p) => p.id === project);
  const label =
    summary?.label ?? (project === meta.data.current.id ? meta.data.current.name : project.slice(0, 12));
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ◆
          </span>{' '}
          agentctx
        </div>
        <nav aria-label="Views">
          <ul>
            {NAV.map((n) => (
              <li key={n.view}>
                <a
                  href={href(n.view, {
                    params: { p: project === meta.data!.current.id ? undefined : project },
                  })}
                  aria-current={route.view === n.view ? 'page' : undefined}
                >
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="project" title={project}>
          <span class="muted">project</span> <strong data-testid="project-label">{label}</strong>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {route.view === 'projects' && (
          <ProjectsView projects={projects} current={project} onChange={() => projects.reload()} />
        )}
        {route.view === 'records' && <RecordsView route={route} project={project} meta={meta.data} />}
        {route.view === 'review' && <ReviewView project={project} />}
        {route.view === 'graph' && <GraphView project={project} route={route} />}
        {route.view === 'profile' && <ProfileView />}
        {route.view === 'sessions' && <SessionsView project={project} />}
        {route.view === 'sync' && <SyncView project={project} />}
      </main>
      <footer class="foot muted">
        agentctx {meta.data.version} · serving 127.0.0.1 only · store changes are made through the same
        services as the CLI
      </footer>
    </div>
  );
}
