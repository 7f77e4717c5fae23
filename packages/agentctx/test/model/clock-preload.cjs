'use strict';
// A test-only virtual clock, loaded into every agentctx process of the model-based test with
// NODE_OPTIONS=--require. The test writes `AGENTCTX_TEST_CLOCK_FILE` (JSON) before each step:
//   {"base": <epoch ms>, "anchor": <real epoch ms>, "mode": "run" | "tick"}
// run:  Date.now() = base + (real now - anchor): time flows at real speed from the set point.
// tick: Date.now() = base + n, n counting this process's reads since the file last changed:
//       deterministic, so two identical runs see identical times (used by the rebuild check).
// A process never sees time go backwards. Without the variable nothing is changed.
const fs = require('node:fs');

const file = process.env.AGENTCTX_TEST_CLOCK_FILE;
if (file) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  let key = '';
  let conf = null;
  let ticks = 0;
  let last = Number.NEGATIVE_INFINITY;

  const load = () => {
    let st;
    try {
      st = fs.statSync(file);
    } catch {
      return conf;
    }
    const k = `${st.ino}:${st.mtimeMs}:${st.size}`;
    if (k !== key) {
      try {
        const c = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (typeof c.base === 'number') {
          conf = c;
          key = k;
          ticks = 0;
        }
      } catch {
        // half-written: keep the previous setting
      }
    }
    return conf;
  };

  const now = () => {
    const c = load();
    let t;
    if (!c) t = realNow();
    else if (c.mode === 'tick') t = c.base + ++ticks;
    else t = c.base + Math.max(0, realNow() - (c.anchor ?? realNow()));
    if (t < last) t = last;
    last = t;
    return t;
  };

  // A plain function, so `Date()` still returns a string and every date is `instanceof Date`.
  const VirtualDate = function VirtualDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
  };
  VirtualDate.prototype = RealDate.prototype;
  VirtualDate.now = now;
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  globalThis.Date = VirtualDate;
}
