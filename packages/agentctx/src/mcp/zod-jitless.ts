import { config } from 'zod/v4/core';

/**
 * Imported first by the MCP entry, before the SDK builds its protocol schemas: zod's JIT
 * compiles a `new Function` parser per object schema on first use, which costs more than it
 * saves in a server that parses a handful of messages per session.
 */
config({ jitless: true });
