#!/usr/bin/env node
// Entry point. `agentctx hook …` loads only the small hook bundle (the hot path);
// `agentctx mcp` the MCP server; everything else the CLI.
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write(`agentctx needs Node.js 20 or newer; this is ${process.version}\n`);
  process.exit(1);
}
const cmd = process.argv[2];
const entry = cmd === 'hook' ? '../dist/hook.js' : cmd === 'mcp' ? '../dist/mcp.js' : '../dist/cli.js';
import(entry).catch((err) => {
  if (cmd === 'hook') process.exit(0); // a hook never breaks a session
  process.stderr.write(`agentctx: cannot load ${entry} (${err?.message}); run npm run build\n`);
  process.exit(1);
});
