import { useMemo, useRef } from 'preact/hooks';
import { getJson } from '../api.js';
import { Empty, ErrorNote, useLoad, useSize } from '../components.js';
import { TYPE_COLOURS } from '../format.js';
import { layoutGraph, type PlacedNode } from '../graph-layout.js';
import { href, navigate, type Route } from '../router.js';
import type { GraphData } from '../types.js';

const LABEL_PX = 11;

/** The label font's width and line box, measured on a canvas with the page's own font family. */
function labelMetrics(el: Element): { measure: (t: string) => number; height: number; ascent: number } {
  const ctx = document.createElement('canvas').getContext('2d');
  const family = getComputedStyle(el).fontFamily || 'sans-serif';
  if (!ctx) return { measure: (t) => t.length * LABEL_PX * 0.62, height: LABEL_PX + 4, ascent: LABEL_PX };
  ctx.font = `${LABEL_PX}px ${family}`;
  const m = ctx.measureText('Hg');
  const ascent = Math.ceil(m.fontBoundingBoxAscent || LABEL_PX);
  const descent = Math.ceil(m.fontBoundingBoxDescent || LABEL_PX * 0.3);
  return { measure: (t) => ctx.measureText(t).width, height: ascent + descent, ascent };
}

/** A line from a to b that stops at b's circle (so an arrowhead shows). */
function edgeEnd(a: PlacedNode, b: PlacedNode, inset: number): { x: number; y: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const d = Math.hypot(dx, dy) || 1;
  return { x: b.x - (dx / d) * (b.r + inset), y: b.y - (dy / d) * (b.r + inset) };
}

export function GraphView({ project, route }: { project: string; route: Route }) {
  const history = route.params.get('history') === '1';
  const data = useLoad(
    () => getJson<GraphData>('/graph', { project, history: history ? '1' : undefined }),
    `${project}/${history}`,
  );
  const box = useRef<HTMLDivElement>(null);
  const size = useSize(box);
  const graph = data.data;
  const metrics = useMemo(() => (box.current ? labelMetrics(box.current) : null), [box.current, size.w]);
  const placed = useMemo(() => {
    if (!graph || !metrics || size.w === 0 || size.h === 0) return [];
    return layoutGraph(graph.nodes, graph.links, {
      width: size.w,
      height: size.h,
      measure: metrics.measure,
      labelHeight: metrics.height,
      margin: 8,
    });
  }, [graph, metrics, size.w, size.h]);
  const at = new Map(placed.map((p) => [p.id, p]));
  const byId = new Map(graph?.nodes.map((n) => [n.id, n]) ?? []);

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
      <div class="graph-box" ref={box}>
        {placed.length > 0 && metrics && (
          <svg
            data-testid="graph"
            width={size.w}
            height={size.h}
            viewBox={`0 0 ${size.w} ${size.h}`}
            role="img"
            aria-label={`Graph of ${records.length} records`}
          >
            <defs>
              <marker
                id="arrow"
                viewBox="0 0 10 10"
                refX="9"
                refY="5"
                markerWidth="6"
                markerHeight="6"
                orient="auto"
              >
                <path d="M0,0 L10,5 L0,10 z" class="arrow" />
              </marker>
            </defs>
            {graph?.links.map((l) => {
              const a = at.get(l.source);
              const b = at.get(l.target);
              if (!a || !b) return null;
              const end = l.kind === 'supersedes' ? edgeEnd(a, b, 1) : b;
              return (
                <line
                  key={`${l.source}>${l.target}`}
                  class={`edge ${l.kind}`}
                  x1={a.x}
                  y1={a.y}
                  x2={end.x}
                  y2={end.y}
                  marker-end={l.kind === 'supersedes' ? 'url(#arrow)' : undefined}
                />
              );
            })}
            {placed.map((p) => {
              const n = byId.get(p.id)!;
              const tip =
                n.kind === 'file'
                  ? `file: ${n.label}`
                  : `${n.group}: ${n.label}${n.superseded ? ' (superseded)' : ''}`;
              const colour = TYPE_COLOURS[n.group] ?? '#888';
              const dot = (
                <circle
                  cx={p.x}
                  cy={p.y}
                  r={p.r}
                  fill={colour}
                  class={`node ${n.kind}${n.superseded ? ' old' : ''}`}
                  data-id={p.id}
                >
                  <title>{tip}</title>
                </circle>
              );
              return n.kind === 'record' ? (
                <a
                  key={p.id}
                  href={href('records', {
                    id: p.id,
                    params: { p: project, history: n.superseded ? '1' : undefined },
                  })}
                  aria-label={tip}
                >
                  {dot}
                </a>
              ) : (
                <g key={p.id}>{dot}</g>
              );
            })}
            {placed.map((p) =>
              p.label ? (
                <text
                  key={`${p.id}-label`}
                  class={`graph-label ${byId.get(p.id)?.kind}`}
                  data-for={p.id}
                  x={p.label.box.x}
                  y={p.label.box.y + metrics.ascent}
                >
                  {p.label.text}
                  <title>{byId.get(p.id)?.label}</title>
                </text>
              ) : null,
            )}
          </svg>
        )}
      </div>
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
