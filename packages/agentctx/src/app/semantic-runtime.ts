import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Paths } from './paths.js';

/**
 * Where the semantic layer's heavy runtime comes from. The default install is keyword-only:
 * transformers.js and its ONNX runtime (~460 MB) are not among the package's dependencies.
 * `agentctx init --semantic` installs a pinned version into `<agentctx home>/semantic`, and
 * this module finds it there first; a checkout's own node_modules (a devDependency there)
 * comes second.
 */

/** What `init --semantic` installs, pinned: the version the code and its tests were built for. */
export const SEMANTIC_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  '@huggingface/transformers': '4.3.2',
  // the vector index in C (a small prebuilt binary); without it vectors are searched in JavaScript
  'sqlite-vec': '0.1.9',
});

export const TRANSFORMERS = '@huggingface/transformers';

/** The folder `init --semantic` installs into (an npm prefix: package.json, node_modules). */
export function semanticPackagesDir(paths: Pick<Paths, 'home'>): string {
  return join(paths.home, 'semantic');
}

export interface ResolvedPackage {
  /** The file `require` loads (the package's CommonJS entry). */
  entry: string;
  from: 'home' | 'install';
}

function tryResolve(req: NodeJS.Require, name: string): string | null {
  try {
    return req.resolve(name);
  } catch {
    return null;
  }
}

/** Find `name`: in `dir` (the agentctx home's semantic folder) first, then beside this install. */
export function resolveSemanticPackage(name: string, dir: string | undefined): ResolvedPackage | null {
  if (dir) {
    const entry = tryResolve(createRequire(join(dir, 'package.json')), name);
    if (entry) return { entry, from: 'home' };
  }
  const own = createRequire(import.meta.url);
  const entry = tryResolve(own, name) ?? (tryResolve(own, `${name}/package.json`) ? name : null);
  return entry ? { entry, from: 'install' } : null;
}

/** sqlite-vec's main file, from the semantic folder or this install; null when neither has it. */
export function sqliteVecEntry(dir: string | undefined): string | null {
  return resolveSemanticPackage('sqlite-vec', dir)?.entry ?? null;
}
