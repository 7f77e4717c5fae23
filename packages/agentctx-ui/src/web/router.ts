import { useEffect, useState } from 'preact/hooks';

const VIEWS = ['projects', 'records', 'review', 'graph', 'profile', 'sessions', 'sync'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  /** A record id for `#/records/<id>`. */
  id?: string;
  params: URLSearchParams;
}

/** `#/records/01J…?p=<project>&q=…` → a route. Unknown views fall back to records. */
function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = raw.split('?');
  const [view = '', id] = path.split('/');
  const known = (VIEWS as readonly string[]).includes(view) ? (view as View) : 'records';
  return { view: known, id: id ? decodeURIComponent(id) : undefined, params: new URLSearchParams(query) };
}

export function href(
  view: View,
  opts: { id?: string; params?: Record<string, string | undefined> } = {},
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.params ?? {})) if (v) q.set(k, v);
  const qs = q.toString();
  return `#/${view}${opts.id ? `/${encodeURIComponent(opts.id)}` : ''}${qs ? `?${qs}` : ''}`;
}

export function navigate(to: string): void {
  if (location.hash !== to) location.hash = to;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
