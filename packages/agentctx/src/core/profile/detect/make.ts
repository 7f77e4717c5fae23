import type { Findings } from './findings.js';
import type { ProfileFs } from './profile-fs.js';

function makeTargets(text: string | null): Set<string> {
  const out = new Set<string>();
  if (!text) return out;
  for (const m of text.matchAll(/^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*:(?!=)/gm)) out.add(m[1]!);
  return out;
}

/**
 * A Makefile is the project's own interface: its targets come first. Runs after the ecosystem
 * detectors, since it puts its commands ahead of theirs and falls back on `make`/`make check`
 * only when they found nothing.
 */
export function detectMake(fs: ProfileFs, f: Findings): void {
  const targets = makeTargets(fs.read('Makefile') ?? fs.read('makefile') ?? fs.read('GNUmakefile'));
  if (targets.size === 0) return;
  if (f.stack.length === 0) f.stack.push('Make');
  if (targets.has('build')) f.build.unshift('make build');
  else if (targets.has('all') && f.build.length === 0) f.build.push('make');
  if (targets.has('test')) f.test.unshift('make test');
  else if (targets.has('check') && f.test.length === 0) f.test.push('make check');
  if (targets.has('lint')) f.lint.unshift('make lint');
}
