import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshCodeGraph } from '../../../../src/core/codegraph/refresh.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { relatedRecords } from '../../../../src/core/records/related.js';
import { linkRecordEntity, upsertNode } from '../../../../src/database/graph-repo.js';
import type { Db } from '../../../../src/database/open.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

const P = 'proj-code';
let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
let root: string;
beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), P);
  root = join(t.path, 'repo');
  mkdirSync(root, { recursive: true });
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A record linked to a file node, as PostToolUse capture or extraction leaves it. */
function recordOn(file: string | null, title: string, body = `${title}.`): string {
  const rec = createRecord(s.deps, { type: 'discovery', title, body, source: 'cli', confidence: 'explicit' });
  if (file) linkRecordEntity(s.db, rec.id, upsertNode(s.db, s.deps.newId, P, 'file', file));
  return rec.id;
}

const refresh = () => refreshCodeGraph({ db: s.db, newId: s.deps.newId, projectId: P, root });
const related = (file: string, maxDepth?: number) =>
  relatedRecords(s.db, file, { projectId: P, root, ...(maxDepth !== undefined ? { maxDepth } : {}) }).map(
    (r) => r.id,
  );

/** The code graph by names (ids differ between rebuilds): edges touching module/symbol nodes, and links. */
function dump(db: Db): { edges: string[]; links: string[] } {
  const edges = db
    .prepare(
      `SELECT f.name AS a, e.rel_type AS rel, t.name AS b FROM edges e JOIN nodes f ON f.id = e.from_id
       JOIN nodes t ON t.id = e.to_id WHERE f.kind IN ('module','symbol') OR t.kind IN ('module','symbol')`,
    )
    .all() as { a: string; rel: string; b: string }[];
  const links = db
    .prepare(
      `SELECT re.record_id AS r, n.name AS n FROM record_entities re JOIN nodes n ON n.id = re.entity_id
       WHERE n.kind = 'symbol'`,
    )
    .all() as { r: string; n: string }[];
  return {
    edges: edges.map((e) => `${e.a} -${e.rel}-> ${e.b}`).sort(),
    links: links.map((l) => `${l.r} ~ ${l.n}`).sort(),
  };
}

function wipeDerived(db: Db): void {
  const code = `SELECT id FROM nodes WHERE kind IN ('module','symbol')`;
  db.prepare(`DELETE FROM edges WHERE from_id IN (${code}) OR to_id IN (${code})`).run();
  db.prepare(`DELETE FROM record_entities WHERE entity_id IN (${code})`).run();
  db.prepare(`DELETE FROM nodes WHERE kind IN ('module','symbol')`).run();
}

describe('refreshCodeGraph', () => {
  it('relates records through shared modules, imported files and named symbols', () => {
    write('src/pay.ts', 'import Stripe from "stripe";\nexport async function chargeCard(cents: number) {}\n');
    write('src/checkout.ts', "import { chargeCard } from './pay.js';\nexport function checkout() {}\n");
    write('src/refunds.ts', "import Stripe from 'stripe';\nimport fs from 'node:fs';\n");
    write('src/other.ts', "import fs from 'node:fs';\n");
    const onCheckout = recordOn('src/checkout.ts', 'Checkout totals');
    const onRefunds = recordOn('src/refunds.ts', 'Refunds are async');
    const onOther = recordOn('src/other.ts', 'Other thing');
    const mention = recordOn(null, 'Amounts in cents', 'Always pass cents to `chargeCard`.');
    recordOn('src/pay.ts', 'Pay file note');

    expect(related('src/refunds.ts')).toEqual([onRefunds]); // nothing derived yet
    const first = refresh();
    // four file nodes; modules npm:stripe (pay, refunds) and src/pay (pay, checkout); one symbol
    expect(first).toMatchObject({ scanned: true, files_read: 4, modules: 2, symbols: 1 });
    // refunds ↔ pay through npm:stripe; node:fs relates nothing (standard library)
    expect(related('src/refunds.ts')).toContain(recordOnFile('src/pay.ts'));
    expect(related('src/refunds.ts')).not.toContain(onOther);
    // pay.ts: the record naming its symbol at 1 hop, checkout (imports it) at 2
    const fromPay = relatedRecords(s.db, 'src/pay.ts', { projectId: P, root });
    expect(fromPay.find((r) => r.id === mention)?.depth).toBe(1);
    expect(fromPay.find((r) => r.id === onCheckout)?.depth).toBe(2);
    // checkout imports chargeCard by name: the record naming it hangs on the symbol, 1 hop away
    expect(
      relatedRecords(s.db, 'src/checkout.ts', { projectId: P, root }).find((r) => r.id === mention)?.depth,
    ).toBe(1);

    // a second run writes nothing
    const again = refresh();
    expect(again).toMatchObject({
      edges_added: 0,
      edges_removed: 0,
      links_added: 0,
      links_removed: 0,
      nodes_dropped: 0,
    });
    // derived: wiped and rebuilt, the same graph
    const before = dump(s.db);
    wipeDerived(s.db);
    expect(related('src/refunds.ts')).toEqual([onRefunds]);
    refresh();
    expect(dump(s.db)).toEqual(before);

    // an import removed on disk goes away, with the node nobody needs any more
    write('src/refunds.ts', '// no imports\n');
    const after = refresh();
    expect(after.edges_removed).toBeGreaterThan(0);
    expect(related('src/refunds.ts')).toEqual([onRefunds]);
    expect(
      s.db.prepare(`SELECT count(*) AS n FROM nodes WHERE name LIKE '%:module:npm:stripe'`).get(),
    ).toEqual({ n: 0 });
  });

  it('leaves the graph alone when the project root is missing', () => {
    write('src/a.ts', "import x from 'shared';");
    write('src/b.ts', "import x from 'shared';");
    recordOn('src/a.ts', 'A');
    recordOn('src/b.ts', 'B');
    refresh();
    const before = dump(s.db);
    rmSync(root, { recursive: true, force: true });
    expect(refresh().scanned).toBe(false);
    expect(dump(s.db)).toEqual(before);
  });

  it('two hops from a file reach exactly the records of the files it shares a module with', () => {
    const pkgs = ['alpha', 'beta', 'gamma', 'delta'];
    const fileArb = fc.record({
      pkgs: fc.subarray(pkgs),
      imports: fc.array(fc.nat({ max: 5 }), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(fileArb, { minLength: 2, maxLength: 6 }), (files) => {
        wipeDerived(s.db);
        s.db.prepare('DELETE FROM record_entities').run();
        s.db.prepare("DELETE FROM nodes WHERE kind = 'file'").run();
        rmSync(root, { recursive: true, force: true });
        const n = files.length;
        const touches: Set<string>[] = [];
        const recs: string[] = [];
        files.forEach((f, i) => {
          const targets = [...new Set(f.imports.map((j) => j % n))].filter((j) => j !== i);
          write(
            `src/f${i}.ts`,
            [
              ...f.pkgs.map((p) => `import ${p} from '${p}';`),
              ...targets.map((j) => `import './f${j}.js';`),
            ].join('\n'),
          );
          touches.push(
            new Set([...f.pkgs.map((p) => `npm:${p}`), ...targets.map((j) => `src/f${j}`), `src/f${i}`]),
          );
          recs.push(recordOn(`src/f${i}.ts`, `Note on file ${i}`));
        });
        refresh();
        for (let i = 0; i < n; i++) {
          const expected = recs.filter((_, j) => j === i || [...touches[i]!].some((m) => touches[j]!.has(m)));
          expect(new Set(related(`src/f${i}.ts`, 2))).toEqual(new Set(expected));
        }
        // rebuilding from nothing gives the same graph
        const before = dump(s.db);
        wipeDerived(s.db);
        refresh();
        expect(dump(s.db)).toEqual(before);
      }),
      { seed: 20261130, numRuns: 40 },
    );
  });
});

function recordOnFile(file: string): string {
  const row = s.db
    .prepare(
      `SELECT re.record_id AS id FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE n.name = ?`,
    )
    .get(`${P}:file:${file}`) as { id: string };
  return row.id;
}
