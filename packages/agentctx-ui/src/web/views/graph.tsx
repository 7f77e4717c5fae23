import ForceGraph from 'force-graph';
import { useEffect, useRef } from 'preact/hooks';
import { getJson } from '../api.js';
import { Empty, ErrorNote, useLoad } from '../components.js';
import { TYPE_COLOURS } from '../format.js';
import { href, navigate, type Route } from '../router.js';
import type { GraphData } from '../types.js';

interface GNode {
  id: string;
  kind: 'record' | 'file';
  label: string;
  group: string;
  superseded?: boolean;
  x?: number;
  y?: number;
}

declare global {
  interface Window {
    /** Read-only view of the rendered graph: where a node is on screen (used by the browser tests). */
    agentctxGraph?: { settled: boolean; screenPosition(id: string): { x: number; y: number } | null };
  }
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function GraphView({ project, route }: { project: string; route: Route }) {
  const history = route.params.get('history') === '1';
  const data = useLoad(
    () => getJson<GraphData>('/graph', { project, history: history ? '1' : undefined }),
    `${project}/${history}`,
  );
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    const graph = data.data;
    if (!el || !graph || graph.nodes.length === 0) return;
    const ink = cssVar('--ink', '#222');
    const faint = cssVar('--line', '#ccc');
    const muted = cssVar('--muted', '#666');
    const fg = new ForceGraph<GNode>(el)
      .width(el.clientWidth)
      .height(el.clientHeight)
      .graphData({
        nodes: graph.nodes.map((n) => ({ ...n })),
        links: graph.links.map((l) => ({ ...l })),
      })
      .nodeId('id')
      .nodeLabel((n) =>
        n.kind === 'file'
          ? `file: ${n.label}`
          : `${n.group}: ${n.label}${n.superseded ? ' (superseded)' : ''}`,
      )
      .nodeVal((n) => (n.kind === 'file' ? 1.5 : 4))
      .nodeColor((n) => {
        const c = TYPE_COLOURS[n.group] ?? '#888';
        return n.superseded ? `${c}66` : c;
      })
      .linkColor((l) => ((l as { kind?: string }).kind === 'supersedes' ? ink : faint))
      .linkWidth((l) => ((l as { kind?: string }).kind === 'supersedes' ? 1.6 : 0.8))
      .linkDirectionalArrowLength((l) => ((l as { kind?: string }).kind === 'supersedes' ? 5 : 0))
      .linkDirectionalArrowRelPos(1)
      .nodeCanvasObjectMode(() => 'after')
      .nodeCanvasObject((n, c, scale) => {
        if (n.x === undefined || n.y === undefined || scale < 0.6) return;
        const text = n.label.length > 32 ? `${n.label.slice(0, 31)}…` : n.label;
        c.font = `${11 / scale}px system-ui, sans-serif`;
        c.textAlign = 'center';
        c.textBaseline = 'top';
        c.fillStyle = n.kind === 'file' ? muted : ink;
        c.fillText(text, n.x, n.y + (n.kind === 'file' ? 4 : 9) / Math.sqrt(scale));
      })
      .cooldownTicks(120)
      .onNodeClick((n) => {
        if (n.kind === 'record')
          navigate(
            href('records', { id: n.id, params: { p: project, history: n.superseded ? '1' : undefined } }),
          );
      });
    const handle = {
      settled: false,
      screenPosition: (id: string) => {
        const n = fg.graphData().nodes.find((x) => x.id === id);
        if (!n || n.x === undefined || n.y === undefined) return null;
        const p = fg.graph2ScreenCoords(n.x, n.y);
        const r = el.getBoundingClientRect();
        return { x: r.left + p.x, y: r.top + p.y };
      },
    };
    window.agentctxGraph = handle;
    fg.onEngineStop(() => {
      fg.zoomToFit(0, 40);
      handle.settled = true;
    });
    const onResize = () => fg.width(el.clientWidth).height(el.clientHeight);
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      window.agentctxGraph = undefined;
      fg._destructor();
      el.replaceChildren();
    };
  }, [data.data, project]);

  const records = data.data?.nodes.filter((n) => n.kind === 'record') ?? [];
  const groups = [...new Set(data.data?.nodes.map((n) => n.group) ?? [])];
  return (
    <section class="graph-view" aria-labelledby="graph-h">
      <div class="head">
        <h1 id="graph-h">Graph</h1>
        <label class="check">
          <input
            type="checkbox"
            checked={history}
            onChange={(e) =>
              navigate(
                href('graph', {
                  params: { p: project, history: (e.target as HTMLInputElement).checked ? '1' : undefined },
                }),
              )
            }
          />{' '}
          Include superseded
        </label>
      </div>
      <p class="muted small">
        Records and the files they touch; arrows run from a new version to the one it superseded. Click a
        record to open it.
      </p>
      <ErrorNote error={data.error} />
      {data.data?.truncated && <p class="note">Large store: the graph shows the newest records only.</p>}
      {data.data && data.data.nodes.length === 0 && <Empty>No records in this project yet.</Empty>}
      <ul class="legend" aria-label="Colours">
        {groups.map((g) => (
          <li key={g}>
            <span class="dot" style={{ background: TYPE_COLOURS[g] ?? '#888' }} /> {g}
          </li>
        ))}
      </ul>
      <div
        class="graph-box"
        ref={box}
        data-testid="graph"
        role="img"
        aria-label={`Graph of ${records.length} records`}
      />
      {records.length > 0 && (
        <details class="graph-list">
          <summary>Records in the graph ({records.length})</summary>
          <ul>
            {records.map((n) => (
              <li key={n.id}>
                <a
                  href={href('records', {
                    id: n.id,
                    params: { p: project, history: n.superseded ? '1' : undefined },
                  })}
                >
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
