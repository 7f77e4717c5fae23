'use strict';
// Loaded with `node --require` (NODE_OPTIONS) into an agentctx child process by the tests of
// the FTS5-less rung: every better-sqlite3 connection the process opens, whichever way the
// native addon was found (the CLI's `bindings`, the hooks' direct path), loads the extension
// named by AGENTCTX_TEST_NO_FTS5_EXTENSION right after opening, so FTS5 is genuinely missing.
const Module = require('node:module');

const extension = process.env.AGENTCTX_TEST_NO_FTS5_EXTENSION;
if (extension) {
  const loadNative = Module._extensions['.node'];
  Module._extensions['.node'] = function loadPatched(module, filename) {
    loadNative.call(this, module, filename);
    const addon = module.exports;
    if (!/better_sqlite3\.node$/.test(filename) || !addon || typeof addon.Database !== 'function') return;
    if (addon.Database.withoutFts5) return;
    const Native = addon.Database;
    class WithoutFts5 extends Native {
      constructor(...args) {
        super(...args);
        this.loadExtension(extension, 'sqlite3_nofts5_init');
      }
    }
    WithoutFts5.withoutFts5 = true;
    addon.Database = WithoutFts5;
  };
}
