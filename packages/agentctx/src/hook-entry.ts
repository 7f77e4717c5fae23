import { runHook } from './hooks/by-name.js';
import { startHook } from './hooks/runner.js';

// `agentctx hook <event>` for any event name (dist/hook.cjs). The bin prefers the event's own
// smaller bundle, dist/hook-<event>.cjs (built by scripts/build.mjs from the same runner).
startHook(() => runHook(process.argv[3]));
