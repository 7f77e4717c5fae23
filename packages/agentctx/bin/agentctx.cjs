#!/usr/bin/env node
// Entry point, CommonJS on purpose. `agentctx hook …` loads only the small CommonJS hook
// bundle (the hot path: no ESM loader); `agentctx mcp` imports the MCP server; everything
// else the CLI.
'use strict';
// Node 22.16 is the first with everything agentctx uses of node:sqlite: FTS5 compiled in,
// file: URIs, isTransaction, setReturnArrays and columns() (docs/ARCHITECTURE.md, "Node").
const [major, minor] = process.versions.node.split('.').map(Number);
const cmd = process.argv[2];
if (major < 22 || (major === 22 && minor < 16)) {
  process.stderr.write(`agentctx needs Node.js 22.16 or newer; this is ${process.version}\n`);
  process.exit(cmd === 'hook' ? 0 : 1); // a hook never breaks a session
}
quietSqliteWarning();
if (cmd === 'hook') {
  try {
    if (process.env.AGENTCTX_VIA === 'plugin' && initRegistered(process.argv[3])) process.exit(0);
    runHookBundle();
  } catch {
    process.exit(0); // a hook never breaks a session
  }
} else if (cmd === 'mcp') {
  // V8 doubles its young generation (where short-lived objects are born) whenever enough
  // survives its collections, up to 32 MB: a server answering call after call reached the cap
  // within a few thousand calls and kept the pages (private memory 26 → 60 MB over 10,000 calls,
  // the live heap 7–8 MB throughout). Growth factor 1 keeps it at its initial size (two 1 MB
  // semi-spaces), memory flat and calls as fast. V8 reads the factor at each growth decision,
  // so setting it now is enough (its command-line form is raised to 2 at start-up). Set before
  // the bundle is compiled: V8 stamps a code cache with the flags, and the cache written at exit
  // must match the flags it is read under.
  try {
    require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // only memory
  }
  // the MCP server through the code cache too: compiling its bundle is most of a cold start
  let started = false;
  try {
    started = cachedLoader()?.('mcp.cjs') !== undefined;
    if (!started) {
      require('../dist/mcp.cjs');
      started = true;
    }
  } catch (err) {
    if (started || err?.code !== 'MODULE_NOT_FOUND') throw err;
  }
  if (!started) {
    process.stderr.write('agentctx: cannot load ../dist/mcp.cjs; run npm run build\n');
    process.exit(1);
  }
} else {
  // Node's compile cache for the CLI's ES modules (its entry and the chunks a command loads)
  cliCompileCache();
  const entry = '../dist/cli.js';
  import(entry).catch((err) => {
    process.stderr.write(`agentctx: cannot load ${entry} (${err?.message}); run npm run build\n`);
    process.exit(1);
  });
}

/**
 * Runs the event's hook bundle (dist/hook-<event>.cjs; dist/hook.cjs for any other name) from a
 * V8 code cache kept in
 * `<agentctx home>/cache/`: compiling them is a few milliseconds of every hook start. A cache
 * file is named for the install's folder, the bundle's size and mtime and the Node version
 * (V8 itself checks only the source length), and written once (at exit, atomically) when
 * missing or rejected by V8. What cannot be loaded that way is required as usual.
 */
function runHookBundle() {
  if (isDisabled(process.env.AGENTCTX_DISABLE)) return; // checked again by the bundle
  const event = process.argv[3];
  // an event's own bundle, where the build made one (scripts/build.mjs lists the events)
  const bundle = /^[a-z]+(?:-[a-z]+)*$/.test(event ?? '') ? `hook-${event}.cjs` : 'hook.cjs';
  const load = cachedLoader();
  if (load?.(bundle) !== undefined) return;
  try {
    require(`../dist/${bundle}`);
  } catch (err) {
    // only a missing bundle itself, never a module missing inside one that ran
    const missing = err?.code === 'MODULE_NOT_FOUND' && String(err.message).includes(bundle);
    if (!missing || bundle === 'hook.cjs') throw err;
    require('../dist/hook.cjs'); // an unknown event (logged there), or a dist/ from before
  }
}

/**
 * A loader running dist/ bundles through the code cache: `load(file)` returns the module's
 * exports, or undefined when the file could not be read or compiled (nothing was run).
 */
function cachedLoader() {
  let fs;
  let path;
  let vm;
  let cacheDir;
  try {
    fs = require('node:fs');
    path = require('node:path');
    vm = require('node:vm');
    const home =
      process.env.AGENTCTX_HOME || path.join(process.env.HOME || require('node:os').homedir(), '.agentctx');
    cacheDir = path.join(home, 'cache');
  } catch {
    return null;
  }
  const dist = path.join(__dirname, '..', 'dist');
  // installs sharing one agentctx home (a global one, a project's npx) keep separate caches
  const install = fnv1a(dist);
  const pending = [];
  const loaded = new Map();
  process.on('exit', () => {
    for (const { script, cachePath, prefix } of pending)
      writeCache(fs, path, cacheDir, script, cachePath, prefix);
  });
  const load = (file) => {
    if (loaded.has(file)) return loaded.get(file).exports;
    const filename = path.join(dist, file);
    let script;
    try {
      // size and mtime from the descriptor the source is read through: a file replaced
      // meanwhile (an upgrade) cannot pair its stamp with the old text
      const fd = fs.openSync(filename, 'r');
      let source;
      let st;
      try {
        st = fs.fstatSync(fd);
        source = fs.readFileSync(fd, 'utf8');
      } finally {
        fs.closeSync(fd);
      }
      const prefix = `${file}-${install}-`;
      const cachePath = path.join(
        cacheDir,
        `${prefix}${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}.v8`,
      );
      let cachedData;
      try {
        cachedData = fs.readFileSync(cachePath);
      } catch {
        cachedData = undefined;
      }
      script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
        filename,
        cachedData,
      });
      if (!cachedData || script.cachedDataRejected) pending.push({ script, cachePath, prefix });
    } catch {
      return undefined;
    }
    const mod = { exports: {}, filename, id: filename, loaded: false };
    loaded.set(file, mod);
    let base;
    const resolver = () => {
      base ??= require('node:module').createRequire(filename);
      return base;
    };
    // the bundles require Node's own modules and, lazily, optional packages
    const req = (id) => {
      return id.startsWith('node:') ? require(id) : resolver()(id);
    };
    req.resolve = (id, options) => resolver().resolve(id, options);
    script.runInThisContext().call(mod.exports, mod.exports, req, mod, filename, dist);
    mod.loaded = true;
    return mod.exports;
  };
  return load;
}

function writeCache(fs, path, dir, script, cachePath, prefix) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${cachePath}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cachePath);
    // caches of earlier builds of the same bundle, and temporary files a killed writer left
    const name = path.basename(cachePath);
    for (const f of fs.readdirSync(dir)) {
      if (!f.startsWith(prefix) || f === name) continue;
      const stale = f.endsWith('.v8') || (f.endsWith('.tmp') && staleTemp(fs, path.join(dir, f)));
      if (stale) fs.rmSync(path.join(dir, f), { force: true });
    }
  } catch {
    // a cache we cannot write only means compiling again next time
  }
}

/** A temporary file no writer can still be renaming: older than a minute. */
function staleTemp(fs, file) {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > 60_000;
  } catch {
    return false;
  }
}

/** A short hex hash of a string (FNV-1a, 32 bits): names, not security. */
function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A hook the plugin runs (its launcher sets AGENTCTX_VIA=plugin) stands aside when `agentctx
 * init` registered the same hook in the user's or the project's settings: Claude Code runs both,
 * and one capture is enough. Two small file reads; a file that cannot be read counts as absent.
 */
function initRegistered(event) {
  if (!/^[a-z]+(?:-[a-z]+)*$/.test(event ?? '')) return false;
  const fs = require('node:fs');
  const path = require('node:path');
  const env = process.env;
  const agentAt = process.argv.indexOf('--agent');
  if (agentAt > 0 && process.argv[agentAt + 1] === 'codex') {
    // the Codex plugin: init's entry in $CODEX_HOME/hooks.json is `agentctx hook EVENT --agent codex …`
    const home = env.CODEX_HOME || path.join(env.HOME || require('node:os').homedir(), '.codex');
    try {
      return fs
        .readFileSync(path.join(home, 'hooks.json'), 'utf8')
        .includes(`"agentctx hook ${event} --agent codex`);
    } catch {
      return false;
    }
  }
  const configDir = env.CLAUDE_CONFIG_DIR || path.join(env.HOME || require('node:os').homedir(), '.claude');
  const project = env.CLAUDE_PROJECT_DIR || process.cwd();
  // init's entry: `agentctx hook EVENT 2>/dev/null || true` (or, from older versions, without the tail)
  const needles = [`"agentctx hook ${event}"`, `"agentctx hook ${event} `];
  for (const file of [
    path.join(configDir, 'settings.json'),
    path.join(project, '.claude', 'settings.json'),
  ]) {
    try {
      const text = fs.readFileSync(file, 'utf8');
      if (needles.some((n) => text.includes(n))) return true;
    } catch {
      // absent or unreadable
    }
  }
  return false;
}

function isDisabled(v) {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * Node 22 announces node:sqlite as experimental on stderr the first time it is loaded. That line
 * means nothing to a user and would land in every hook's and command's stderr: this one warning
 * is dropped, every other is printed as usual.
 */
function quietSqliteWarning() {
  const emit = process.emitWarning;
  process.emitWarning = function emitWarning(warning, ...rest) {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    if (type === 'ExperimentalWarning' && /\bSQLite\b/.test(String(warning?.message ?? warning))) return;
    return emit.call(this, warning, ...rest);
  };
}

/**
 * Node's own on-disk compile cache (module.enableCompileCache, Node 22.1) for the CLI, kept in
 * `<agentctx home>/cache/compile`: compiling the entry and the command's chunks is a good part
 * of a short command. A cache that cannot be made only means compiling again.
 */
function cliCompileCache() {
  try {
    const path = require('node:path');
    const home =
      process.env.AGENTCTX_HOME || path.join(process.env.HOME || require('node:os').homedir(), '.agentctx');
    // only in a home that exists: `--version` or `doctor` before `init` create nothing
    if (require('node:fs').existsSync(home))
      require('node:module').enableCompileCache?.(path.join(home, 'cache', 'compile'));
  } catch {
    // only speed
  }
}
