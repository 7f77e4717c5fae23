import type { Page } from 'playwright-core';

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface GraphGeometry {
  svg: Rect;
  nodes: { id: string; rect: Rect }[];
  labels: { id: string; text: string; title: string; rect: Rect }[];
}

/** Where the browser drew the graph: the SVG, each node's circle and each label, in page pixels. */
export function graphGeometry(page: Page): Promise<GraphGeometry> {
  return page.evaluate(() => {
    const r = (el: Element) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    };
    const svg = document.querySelector('[data-testid="graph"]');
    if (!svg) throw new Error('no graph drawn');
    return {
      svg: r(svg),
      nodes: [...svg.querySelectorAll('circle.node')].map((c) => ({
        id: c.getAttribute('data-id') ?? '',
        rect: r(c),
      })),
      labels: [...svg.querySelectorAll('text.graph-label')].map((t) => ({
        id: t.getAttribute('data-for') ?? '',
        text: t.firstChild?.textContent ?? '',
        title: t.querySelector('title')?.textContent ?? '',
        rect: r(t),
      })),
    };
  });
}

export function inside(inner: Rect, outer: Rect, margin: number): boolean {
  return (
    inner.left >= outer.left + margin &&
    inner.top >= outer.top + margin &&
    inner.right <= outer.right - margin &&
    inner.bottom <= outer.bottom - margin
  );
}

/** Whether two boxes share any area (touching edges do not count). */
export function intersects(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The geometry's broken promises, in words (empty when the drawing keeps them all). */
export function layoutFaults(g: GraphGeometry, margin: number): string[] {
  const faults: string[] = [];
  for (const n of g.nodes) if (!inside(n.rect, g.svg, margin)) faults.push(`node ${n.id} clipped`);
  for (const l of g.labels) if (!inside(l.rect, g.svg, margin)) faults.push(`label of ${l.id} clipped`);
  for (let i = 0; i < g.labels.length; i++)
    for (let j = i + 1; j < g.labels.length; j++)
      if (intersects(g.labels[i]!.rect, g.labels[j]!.rect))
        faults.push(`labels of ${g.labels[i]!.id} and ${g.labels[j]!.id} overlap`);
  return faults;
}
