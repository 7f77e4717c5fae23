#!/usr/bin/env node
// Entry point, CommonJS on purpose. `agentctx hook …` requires only the small CommonJS hook
// bundle (the hot path: no ESM loader); `agentctx mcp` imports the MCP server; everything
// else the CLI.
'use strict';
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write(`agentctx needs Node.js 20 or newer; this is ${process.version}\n`);
  process.exit(1);
}
const cmd = process.argv[2];
if (cmd === 'hook') {
  try {
    require('../dist/hook.cjs');
  } catch {
    process.exit(0); // a hook never breaks a session
  }
} else {
  const entry = cmd === 'mcp' ? '../dist/mcp.js' : '../dist/cli.js';
  import(entry).catch((err) => {
    process.stderr.write(`agentctx: cannot load ${entry} (${err?.message}); run npm run build\n`);
    process.exit(1);
  });
}
