/**
 * Where the graph's nodes and labels go, as plain numbers for an SVG of a known pixel size.
 * Pure (no DOM): the view passes a `measure` for label widths. Guarantees by construction, which
 * the browser tests check on generated graphs:
 * - every node's circle lies inside the box with at least `margin` pixels to spare;
 * - every shown label lies inside the box too, and no two labels' boxes meet;
 * - a label that cannot be placed clear of the others is left out (the node keeps its full
 *   title as a tooltip), and a long label is cut with "…" to a width, never spilling.
 */

interface LayoutNode {
  id: string;
  kind: 'record' | 'file';
  label: string;
  superseded?: boolean;
}

interface LayoutLink {
  source: string;
  target: string;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacedNode {
  id: string;
  x: number;
  y: number;
  r: number;
  /** The label's text (maybe cut) and its box, top-left origin; null when it did not fit. */
  label: { text: string; box: Box } | null;
}

interface LayoutOptions {
  width: number;
  height: number;
  /** Width of `text` in pixels at the label font. */
  measure: (text: string) => number;
  /** Height of a label's box (the font's line box). */
  labelHeight: number;
  /** Space kept free at every edge. */
  margin?: number;
  /** Widest a label may be before it is cut. */
  maxLabelWidth?: number;
}

const GAP = 3; // pixels kept between a label and anything else
const SPREAD = 3; // most pixels per layout unit

function nodeRadius(n: LayoutNode): number {
  return n.kind === 'file' ? 4 : 7;
}

/** A force layout in abstract units: repulsion between all nodes, springs on links, a pull to the centre. */
function simulate(nodes: LayoutNode[], links: LayoutLink[]): { x: number; y: number }[] {
  const n = nodes.length;
  // deterministic start: a sunflower spiral, so the same graph always draws the same way
  const pos = nodes.map((_, i) => {
    const a = i * 2.399963;
    const d = 10 * Math.sqrt(i + 0.5);
    return { x: d * Math.cos(a), y: d * Math.sin(a) };
  });
  const index = new Map(nodes.map((nd, i) => [nd.id, i]));
  const edges = links
    .map((l) => [index.get(l.source), index.get(l.target)] as const)
    .filter((e): e is readonly [number, number] => e[0] !== undefined && e[1] !== undefined && e[0] !== e[1]);
  const ticks = n > 300 ? 120 : n > 100 ? 200 : 300;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let t = 0; t < ticks; t++) {
    const alpha = 1 - t / ticks;
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i++) {
      const pi = pos[i]!;
      for (let j = i + 1; j < n; j++) {
        const pj = pos[j]!;
        let vx = pi.x - pj.x;
        let vy = pi.y - pj.y;
        let d2 = vx * vx + vy * vy;
        if (d2 < 0.01) {
          vx = 0.1 * ((i % 3) - 1) + 0.05;
          vy = 0.1 * ((j % 3) - 1) + 0.05;
          d2 = vx * vx + vy * vy;
        }
        const f = 60 / d2;
        dx[i]! += vx * f;
        dy[i]! += vy * f;
        dx[j]! -= vx * f;
        dy[j]! -= vy * f;
      }
    }
    for (const [a, b] of edges) {
      const pa = pos[a]!;
      const pb = pos[b]!;
      const vx = pb.x - pa.x;
      const vy = pb.y - pa.y;
      const d = Math.sqrt(vx * vx + vy * vy) || 1;
      const f = (d - 30) * 0.05;
      dx[a]! += (vx / d) * f;
      dy[a]! += (vy / d) * f;
      dx[b]! -= (vx / d) * f;
      dy[b]! -= (vy / d) * f;
    }
    for (let i = 0; i < n; i++) {
      const p = pos[i]!;
      let mx = dx[i]! - p.x * 0.05;
      let my = dy[i]! - p.y * 0.05;
      const m = Math.sqrt(mx * mx + my * my);
      const cap = 10 * alpha + 0.5; // cooling: big moves early, small at the end
      if (m > cap) {
        mx = (mx / m) * cap;
        my = (my / m) * cap;
      }
      p.x += mx;
      p.y += my;
    }
  }
  return pos;
}

/** `text` cut with "…" until it measures at most `max` pixels. */
function fitText(text: string, max: number, measure: (t: string) => number): string {
  if (measure(text) <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${text.slice(0, mid).trimEnd()}…`) <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo).trimEnd()}…`;
}

function meets(a: Box, b: Box, gap: number): boolean {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/** Whether the segment from (x1,y1) to (x2,y2) passes through the box (clipped against each side). */
function crosses([x1, y1, x2, y2]: readonly [number, number, number, number], b: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const sides: [number, number][] = [
    [-dx, x1 - b.x],
    [dx, b.x + b.w - x1],
    [-dy, y1 - b.y],
    [dy, b.y + b.h - y1],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

export function layoutGraph(nodes: LayoutNode[], links: LayoutLink[], opts: LayoutOptions): PlacedNode[] {
  const { width: W, height: H, measure, labelHeight: lh } = opts;
  const margin = opts.margin ?? 8;
  if (nodes.length === 0 || W <= 0 || H <= 0) return [];
  const raw = simulate(nodes, links);
  // fit the layout to the box, each axis on its own so a wide box is used in full
  const maxR = Math.max(...nodes.map(nodeRadius));
  const pad = margin + maxR;
  const xs = raw.map((p) => p.x);
  const ys = raw.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // no more than SPREAD pixels a unit, so a small graph stays a readable cluster in the middle
  const fit = (v: number, lo: number, hi: number, size: number) => {
    const room = Math.max(0, size - 2 * pad);
    const scale = hi - lo < 1e-9 ? 0 : Math.min(room / (hi - lo), SPREAD);
    return size / 2 + (v - (lo + hi) / 2) * scale;
  };
  const placed: PlacedNode[] = nodes.map((n, i) => ({
    id: n.id,
    x: fit(raw[i]!.x, x0, x1, W),
    y: fit(raw[i]!.y, y0, y1, H),
    r: nodeRadius(n),
    label: null,
  }));

  // labels: current records first, then superseded ones, then files; the most linked first
  const degree = new Map<string, number>();
  for (const l of links) {
    degree.set(l.source, (degree.get(l.source) ?? 0) + 1);
    degree.set(l.target, (degree.get(l.target) ?? 0) + 1);
  }
  const rank = (n: LayoutNode) => (n.kind === 'file' ? 2 : n.superseded ? 1 : 0);
  const order = nodes
    .map((_, i) => i)
    .sort((a, b) => {
      const na = nodes[a]!;
      const nb = nodes[b]!;
      return rank(na) - rank(nb) || (degree.get(nb.id) ?? 0) - (degree.get(na.id) ?? 0) || a - b;
    });
  const nodeBoxes = placed.map((p) => ({ x: p.x - p.r, y: p.y - p.r, w: 2 * p.r, h: 2 * p.r }));
  const taken: Box[] = [];
  const at = new Map(placed.map((p) => [p.id, p]));
  const segments = links.flatMap((l) => {
    const a = at.get(l.source);
    const b = at.get(l.target);
    return a && b ? [[a.x, a.y, b.x, b.y] as const] : [];
  });
  const maxW = Math.min(opts.maxLabelWidth ?? 220, W - 2 * margin);
  if (maxW <= 0 || lh > H - 2 * margin) return placed;
  for (const i of order) {
    const p = placed[i]!;
    const text = fitText(nodes[i]!.label.replace(/\s+/g, ' ').trim(), maxW, measure);
    if (!text) continue;
    const w = Math.min(maxW, measure(text));
    const candidates: [number, number][] = [
      [p.x - w / 2, p.y + p.r + GAP], // below
      [p.x - w / 2, p.y - p.r - GAP - lh], // above
      [p.x + p.r + GAP, p.y - lh / 2], // right
      [p.x - p.r - GAP - w, p.y - lh / 2], // left
    ];
    // of the places clear of labels and nodes, the one fewest edges run through
    let best: { box: Box; crossed: number } | null = null;
    for (const [cx, cy] of candidates) {
      const box = {
        x: clamp(cx, margin, W - margin - w),
        y: clamp(cy, margin, H - margin - lh),
        w,
        h: lh,
      };
      if (taken.some((t) => meets(t, box, GAP))) continue;
      // its own node too: a box pushed back inside the edges may land on it
      if (nodeBoxes.some((nb) => meets(nb, box, 1))) continue;
      const crossed = segments.filter((sg) => crosses(sg, box)).length;
      if (!best || crossed < best.crossed) best = { box, crossed };
      if (crossed === 0) break;
    }
    if (best) {
      taken.push(best.box);
      p.label = { text, box: best.box };
    }
  }
  return placed;
}
