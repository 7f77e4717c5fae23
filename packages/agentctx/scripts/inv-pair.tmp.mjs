// paired before/after SessionStart timing (not committed)
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareStore } from './hook-bench-store.mjs';
const NEW = join(process.cwd(), 'bin', 'agentctx.cjs');
const OLD = '/tmp/inv-verify/packages/agentctx/bin/agentctx.cjs';
const n = Number(process.argv[2] ?? 10000);
const rounds = Number(process.argv[3] ?? 21);
const dir = mkdtempSync(join(tmpdir(), 'inv-pair-'));
const { env, repo, home } = prepareStore(dir, n);
const digests = join(home, '.agentctx', 'digests');
const db = join(home, '.agentctx', 'agentctx.db');
const f = readFileSync(join(digests, (await import('node:fs')).readdirSync(digests).find((x) => x.endsWith('.digest.json'))), 'utf8');
const j = JSON.parse(f);
const pid = (await import('node:fs')).readdirSync(digests).find((x) => x.endsWith('.digest.json')).replace('.digest.json', '');
writeFileSync(join(digests, `${pid}.ids.json`), JSON.stringify({ ids: j.ids, tokens: j.tokens, generated_at: j.generated_at }));
const time = (args, input) => { const t0 = process.hrtime.bigint(); const r = spawnSync(process.execPath, args, { input, env, cwd: repo, encoding: 'utf8' }); if (r.status !== 0) throw new Error(r.stderr); return { ms: Number(process.hrtime.bigint() - t0) / 1e6, out: r.stdout }; };
const s = { node: [], old: [], fast: [], slow: [] };
let lens = {};
for (let i = 0; i < rounds + 2; i++) {
  const p = JSON.stringify({ session_id: `p-${i}`, transcript_path: '/dev/null', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });
  const a = time(['-e', '0'], '');
  const b = time([OLD, 'hook', 'session-start'], p);
  const c = time([NEW, 'hook', 'session-start'], p);
  appendFileSync(`${db}.retire-begun`, '.'); appendFileSync(`${db}.retire-done`, '.');
  const d = time([NEW, 'hook', 'session-start'], p);
  lens = { old: b.out.length, fast: c.out.length, slow: d.out.length };
  // put the bench digest back (the slow path rewrote it, stamped with the new count)
  const cur = JSON.parse(readFileSync(join(digests, `${pid}.digest.json`), 'utf8'));
  writeFileSync(join(digests, `${pid}.digest.json`), JSON.stringify({ ...j, retire_stamp: cur.retire_stamp }));
  writeFileSync(join(digests, `${pid}.md`), j.text);
  writeFileSync(join(digests, `${pid}.ids.json`), JSON.stringify({ ids: j.ids, tokens: j.tokens, generated_at: j.generated_at }));
  if (i >= 2) { s.node.push(a.ms); s.old.push(b.ms); s.fast.push(c.ms); s.slow.push(d.ms); }
}
const med = (xs) => { const v = [...xs].sort((x, y) => x - y); return v[Math.floor(v.length / 2)]; };
const m = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, med(v)]));
console.log(`${n} records, ${rounds} rounds: node -e 0 ${m.node.toFixed(1)} ms; before ${m.old.toFixed(1)} (${(m.old / m.node).toFixed(2)}×); after, current digest ${m.fast.toFixed(1)} (${(m.fast / m.node).toFixed(2)}×); after, digest stale (recomposed) ${m.slow.toFixed(1)} (${(m.slow / m.node).toFixed(2)}×)`, lens);
