// `npm run bench:lock-attribution -- HOLDS.jsonl [WAITS.jsonl]`: the attribution of a kept hold
// log (bench:scale --hold-log FILE) on its own, for another threshold than the run's.

import { defineCommand, parseOrExit, usageError } from '../args.js';
import { attribution, readJsonl, type Wait } from '../lock-attribution.js';

const cmd = defineCommand({
  name: 'bench:lock-attribution',
  summary: 'Attribute the probe waits of a bench:scale --hold-log run to the holds that overlapped them.',
  options: {
    over: { kind: 'int', default: 50, help: 'attribute the waits longer than this many ms', value: 'MS' },
  },
  positionals: { usage: 'HOLDS.jsonl [WAITS.jsonl]', max: 2 },
});
const { values, positionals } = parseOrExit(cmd);
const [holdsFile, waitsFile] = positionals;
if (!holdsFile) usageError(cmd, 'HOLDS.jsonl (the --hold-log file of bench:scale) is required');
for (const l of attribution(
  readJsonl(waitsFile ?? `${holdsFile}.waits.jsonl`) as Wait[],
  readJsonl(holdsFile),
  values.over,
))
  console.log(l);
