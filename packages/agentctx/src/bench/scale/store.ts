// The scale benchmark's store (issue 20): a year of daily use across a dozen repositories —
// 12 projects × 8,000 records plus 4,000 global ones at 100,000 — with realistic text: a shared
// developer vocabulary plus each project's own identifiers (modules, functions, vendors),
// Zipf-skewed, seeded through the records repository.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../database/open.js';
import type { RecordType } from '../../shared/types.js';
import { fakeRepo, storePath } from '../paths.js';
import { mulberry32, pick, pickWeighted, type Rand, zipf } from '../prng.js';
import { type SeedRecord, seedStore } from '../seed.js';
import { DEV_WORDS, madeUpName, sentenceOf, ulidAt } from '../text.js';

export const PROJECTS = 12;

/** The run's one generator: the store's text, then the queries and prompts of the parts. */
export const rand: Rand = mulberry32(2020);

const COMMON = `the a to of in for on with when and is it we use not by from after before so but
only every each this that all new old keep run add fix check move write read call return set get`
  .split(/\s+/)
  .filter(Boolean);
const SUFFIX = ['', '', '', 'Service', 'Handler', 'Store', 'Client', 'Job', 'Queue', 'View', 'Api', '_test'];

/** A project's own identifiers (its modules, functions, vendors, error codes). */
export function identifiers(p: number, n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => `${madeUpName(i * 7 + p * 7919 + 13, p)}${SUFFIX[(i + p) % SUFFIX.length]}`,
  );
}
const TYPES: readonly (readonly [RecordType, number])[] = [
  ['decision', 0.2],
  ['convention', 0.15],
  ['preference', 0.1],
  ['discovery', 0.25],
  ['bugfix', 0.22],
  ['handover', 0.04],
  ['profile', 0.04],
];
const pickType = (global: boolean): RecordType =>
  global ? (rand() < 0.7 ? 'preference' : 'convention') : pickWeighted(rand, TYPES, 'discovery');
const sentence = (own: readonly string[], n: number) =>
  sentenceOf(
    Array.from({ length: n }, () => {
      const r = rand();
      return r < 0.35 ? pick(rand, COMMON) : r < 0.7 ? zipf(rand, DEV_WORDS) : zipf(rand, own);
    }),
  );
const body = (own: readonly string[]) =>
  Array.from({ length: 1 + Math.floor(rand() * 4) }, () => sentence(own, 6 + Math.floor(rand() * 12))).join(
    ' ',
  );

export interface ScaleStore {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The project folders, repo0 … repo11. */
  repos: string[];
  ids: string[];
  /** Records in the store, and the ms seeding took (0 for a kept store). */
  n: number;
  ms: number;
}

/** The shape at `records`: per project, and global. */
export function shape(records: number): { perProject: number; global: number } {
  const perProject = Math.round((records * 0.96) / PROJECTS);
  return { perProject, global: records - perProject * PROJECTS };
}

/** The project folders and their ids, from the CLI. */
function projects(bin: string, dir: string, env: NodeJS.ProcessEnv, create: boolean) {
  const repos: string[] = [];
  const ids: string[] = [];
  for (let p = 0; p < PROJECTS; p++) {
    const repo = join(dir, `repo${p}`);
    if (create) fakeRepo(repo, `git@github.com:acme/app-${p}.git`);
    const s = spawnSync(process.execPath, [bin, 'status', '--json'], { cwd: repo, env, encoding: 'utf8' });
    if (s.status !== 0) throw new Error(`agentctx status failed: ${s.stderr}`);
    const id = (JSON.parse(s.stdout) as { project_id?: string }).project_id;
    if (!id) throw new Error(`no project id in ${s.stdout.slice(0, 300)}`);
    repos.push(repo);
    ids.push(id);
  }
  return { repos, ids };
}

/** Seed a new store of `records` records in `dir`. */
export function buildStore(bin: string, dir: string, env: NodeJS.ProcessEnv, records: number): ScaleStore {
  const t0 = performance.now();
  const home = join(dir, 'home');
  const { repos, ids } = projects(bin, dir, env, true);
  const { perProject, global } = shape(records);
  const n = seedStore(storePath(home), scaleRecords(ids, perProject, global));
  return { dir, home, env, repos, ids, n, ms: performance.now() - t0 };
}

/** A kept store: its projects in the order buildStore made them; session files cleared. */
export function reuseStore(bin: string, dir: string, env: NodeJS.ProcessEnv): ScaleStore {
  const home = join(dir, 'home');
  const { repos, ids } = projects(bin, dir, env, false);
  const tmp = env.AGENTCTX_TMPDIR as string;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const db = openDb(storePath(home), { readonly: true });
  const n = (db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
  db.close();
  return { dir, home, env, repos, ids, n, ms: 0 };
}

/** The records, interleaved in time across the projects, as a year of work is. */
function* scaleRecords(ids: readonly string[], perProject: number, global: number): Generator<SeedRecord> {
  const own = ids.map((_, p) => identifiers(p, 3000));
  const globalOwn = identifiers(99, 800);
  const handover = new Set<string>();
  let i = 0;
  const make = (owner: string, isGlobal: boolean, words: readonly string[]): SeedRecord => {
    const type = pickType(isGlobal);
    const at = new Date(Date.UTC(2025, 0, 1) + i * 300_000).toISOString();
    let superseded = rand() < 0.12 ? at : null;
    if (type === 'handover' && !superseded && handover.has(owner)) superseded = at;
    if (type === 'handover' && !superseded) handover.add(owner);
    if (type === 'profile') superseded = at; // keyed: older profile facts, retired
    const r: SeedRecord = {
      id: ulidAt(i, rand),
      project_id: owner,
      type,
      title: sentence(words, 4 + Math.floor(rand() * 7)).slice(0, 119),
      body: body(words),
      scope: isGlobal ? 'global' : 'project',
      confidence: rand() < 0.4 ? 'explicit' : 'inferred',
      valid_from: at,
      superseded_at: superseded,
      source: rand() < 0.5 ? 'llm_extraction' : 'cli',
      session_id: `sess-${i % 900}`,
    };
    i++;
    return r;
  };
  const total = perProject * PROJECTS + global;
  const left = ids.map(() => perProject);
  let g = global;
  for (let n = 0; n < total; n++) {
    if (Math.floor(rand() * total) < global && g > 0) {
      g--;
      yield make('_global', true, globalOwn);
      continue;
    }
    let p = Math.floor(rand() * PROJECTS);
    // the next project with records left; when none has any, the rest are global
    for (let k = 0; k < PROJECTS && left[p] === 0; k++) p = (p + 1) % PROJECTS;
    if (left[p] === 0 && g > 0) {
      g--;
      yield make('_global', true, globalOwn);
      continue;
    }
    left[p] = (left[p] as number) - 1;
    yield make(ids[p] as string, false, own[p] as string[]);
  }
}
