'use strict';
// Loaded with `node --require` (NODE_OPTIONS) into an agentctx child process by the tests of
// the FTS5-less rung: every node:sqlite connection the process opens loads the extension named
// by AGENTCTX_TEST_NO_FTS5_EXTENSION right after opening, so FTS5 is genuinely missing. The
// driver (src/database/sqlite.ts) reads DatabaseSync from the module at each open, so replacing
// it here reaches every connection, whichever bundle opens it.
const extension = process.env.AGENTCTX_TEST_NO_FTS5_EXTENSION;
if (extension) {
  const sqlite = require('node:sqlite');
  const Native = sqlite.DatabaseSync;
  if (!Native.withoutFts5) {
    class WithoutFts5 extends Native {
      constructor(path, opts) {
        super(path, { ...opts, allowExtension: true });
        this.enableLoadExtension(true);
        this.loadExtension(extension, 'sqlite3_nofts5_init');
        this.enableLoadExtension(false);
      }
    }
    WithoutFts5.withoutFts5 = true;
    sqlite.DatabaseSync = WithoutFts5;
  }
}
