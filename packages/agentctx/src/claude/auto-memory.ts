import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { readRegularFile } from '../files/regular-file.js';
import { getProp, toValue } from './json-text.js';
import { claudeConfigDir, parseSettings, projectSettingsPath } from './settings-file.js';

/**
 * Claude Code's own auto-memory, as measured with claude 2.1.332: the notes the model writes for
 * itself under `<CLAUDE_CONFIG_DIR or ~/.claude>/projects/<slug>/memory/`, where the slug is the
 * main worktree's root with every character other than an ASCII letter or digit replaced by
 * `-` (all worktrees of a repository share it). `MEMORY.md` is the index Claude Code loads into
 * every session; each topic file holds one note with a frontmatter (`name`, `description`,
 * `metadata.type` = user | feedback | project | reference; older versions put `type` at the top).
 * On by default; off with `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` or `autoMemoryEnabled: false`;
 * `autoMemoryDirectory` (user or local settings only) moves it.
 */

type Env = Record<string, string | undefined>;

/** Claude Code's folder name for a project directory. */
function claudeProjectSlug(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]/g, '-');
}

function settingsValue(path: string, key: string): unknown {
  try {
    if (!existsSync(path)) return undefined;
    const { root } = parseSettings(readRegularFile(path, 4 * 1024 * 1024), path);
    const prop = getProp(root, key);
    return prop ? toValue(prop.value) : undefined;
  } catch {
    return undefined; // a settings file we cannot read decides nothing here
  }
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

interface AutoMemoryState {
  /** Whether Claude Code writes and loads auto-memory for this project. */
  enabled: boolean;
  /** What decided it: the default, the environment, or the settings file that set it. */
  decidedBy: string;
  /** The memory folder for this project. */
  dir: string;
  /** Markdown files in it (MEMORY.md and topic files). */
  files: string[];
}

/** Settings files in the order Claude Code lets them override each other (last wins). */
function settingsChain(env: Env, repoRoot: string): { path: string; trusted: boolean }[] {
  return [
    { path: join(claudeConfigDir(env), 'settings.json'), trusted: true },
    { path: projectSettingsPath(repoRoot), trusted: false },
    { path: join(repoRoot, '.claude', 'settings.local.json'), trusted: true },
  ];
}

function expandHome(p: string, env: Env): string {
  return p === '~' || p.startsWith('~/') ? join(env.HOME || homedir(), p.slice(1)) : p;
}

/** The memory folder of the project whose main worktree is `mainRoot`. */
export function autoMemoryDir(env: Env, mainRoot: string, repoRoot = mainRoot): string {
  let dir: string | null = null;
  for (const s of settingsChain(env, repoRoot)) {
    // a project's shared settings may not move it (Claude Code ignores it there)
    const v = s.trusted ? settingsValue(s.path, 'autoMemoryDirectory') : undefined;
    if (typeof v === 'string' && v.trim()) {
      const p = expandHome(v.trim(), env);
      dir = isAbsolute(p) ? p : resolve(repoRoot, p);
    }
  }
  if (dir) return dir;
  const projects = join(claudeConfigDir(env), 'projects');
  const slug = claudeProjectSlug(mainRoot);
  const exact = join(projects, slug, 'memory');
  if (slug.length <= 200 || existsSync(exact)) return exact;
  // very long paths are cut and suffixed with a hash: find the folder by its prefix
  try {
    const hit = readdirSync(projects).find((n) => n.startsWith(slug.slice(0, 200)));
    if (hit) return join(projects, hit, 'memory');
  } catch {
    // no projects folder yet
  }
  return exact;
}

export function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.md'))
      .map((e) => e.name)
      .sort((a, b) => (a === 'MEMORY.md' ? -1 : b === 'MEMORY.md' ? 1 : a.localeCompare(b)));
  } catch {
    return [];
  }
}

/** Whether auto-memory is on for the project, where it lives and what it holds. */
export function autoMemoryState(env: Env, mainRoot: string, repoRoot = mainRoot): AutoMemoryState {
  const dir = autoMemoryDir(env, mainRoot, repoRoot);
  const files = markdownFiles(dir);
  if (truthy(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY))
    return { enabled: false, decidedBy: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY', dir, files };
  let enabled = true;
  let decidedBy = 'default';
  for (const s of settingsChain(env, repoRoot)) {
    const v = settingsValue(s.path, 'autoMemoryEnabled');
    if (typeof v === 'boolean') {
      enabled = v;
      decidedBy = s.path;
    }
  }
  return { enabled, decidedBy, dir, files };
}
