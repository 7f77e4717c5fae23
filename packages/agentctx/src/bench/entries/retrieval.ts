// The retrieval benchmark: the same engine code the hooks use, over a dataset of records and
// queries (bench/dev-memory.json, or LoCoMo by path), or its latency on synthetic stores.
import { readFileSync } from 'node:fs';
import { defineCommand, parseOrExit, usageError } from '../args.js';
import { parseDataset } from '../dataset.js';
import { formatHybridReport, runHybridBench } from '../hybrid.js';
import { measureLatency } from '../latency.js';
import { formatReport, runBench } from '../run.js';
import { SPLITS, selectSplit } from '../split.js';
import { formatFeedbackReport, runUsageFeedback } from '../usage-feedback.js';

const cmd = defineCommand({
  name: 'bench:retrieval',
  summary: 'Retrieval quality over a dataset (--dataset), or latency on synthetic stores (--latency).',
  options: {
    dataset: {
      kind: 'string',
      default: '',
      help: 'the dataset (format: bench/README or shared/bench/README)',
      value: 'FILE',
    },
    path: {
      kind: 'choice',
      choices: ['hook', 'mcp', 'engine'],
      default: 'hook',
      help: 'the path whose figures lead',
    },
    split: {
      kind: 'choice',
      choices: SPLITS,
      default: 'all',
      help: 'the queries measured',
    },
    json: { kind: 'flag', help: 'print the figures as JSON' },
    'usage-feedback': { kind: 'flag', help: 'the usage factor of the score, before and after' },
    latency: {
      kind: 'ints',
      default: [],
      help: 'time the engine on synthetic stores of these sizes',
      value: 'N,N…',
    },
    hybrid: { kind: 'flag', help: 'keyword-only against hybrid retrieval (needs --model-path)' },
    'model-path': {
      kind: 'string',
      default: '',
      help: 'the folder holding the embedding model',
      value: 'DIR',
    },
    model: { kind: 'string', default: 'glove-sif-384-q8', help: 'the embedding model', value: 'NAME' },
  },
});
const v = parseOrExit(cmd).values;
const out = (text: string) => process.stdout.write(`${text}\n`);
const fail = (err: unknown) => {
  process.stderr.write(`bench:retrieval: ${(err as Error).message}\n`);
  process.exit(1);
};

if (v.latency.length > 0) {
  const reports = v.latency.map((n) => measureLatency(n));
  if (v.json) out(JSON.stringify({ latency: reports }));
  else
    for (const r of reports)
      out(
        `${r.records} records: ${r.promptWords}-word prompt median ${r.medianMs} ms, p95 ${r.p95Ms} ms; 5-word prompt median ${r.shortMedianMs} ms`,
      );
  if (!v.dataset) process.exit(0);
}
if (!v.dataset) usageError(cmd, '--dataset FILE or --latency N,N… is required');
let data: ReturnType<typeof parseDataset> = { name: '', records: [], queries: [] };
try {
  data = selectSplit(parseDataset(JSON.parse(readFileSync(v.dataset, 'utf8'))), v.split);
} catch (err) {
  fail(err);
}
if (v.hybrid) {
  if (!v['model-path']) usageError(cmd, '--hybrid needs --model-path DIR (a folder holding the model)');
  const r = await runHybridBench(data, v['model-path'], v.model).catch(fail);
  if (r) out(v.json ? JSON.stringify(r) : formatHybridReport(r));
} else if (v['usage-feedback']) {
  const sweep = process.env.AGENTCTX_USAGE_SWEEP; // "slope,min,max;…": figures per setting
  if (sweep)
    for (const spec of sweep.split(';')) {
      const [slope = 0, min = 0, max = 0] = spec.split(',').map(Number);
      out(
        `slope ${slope} bounds [${min}, ${max}]\n${formatFeedbackReport(runUsageFeedback(data, 5, { slope, min, max }))}`,
      );
    }
  else {
    const r = runUsageFeedback(data);
    out(v.json ? JSON.stringify(r) : formatFeedbackReport(r));
  }
} else {
  const report = runBench(data);
  if (v.json) {
    const { hook, engine, mcp, baseline, queries, categories, records, engineMsPerQuery } = report;
    const rest = { split: v.split, engine, baseline, queries, categories, records, engineMsPerQuery };
    const lead = v.path === 'hook' ? { hook } : v.path === 'mcp' ? { mcp } : {};
    out(JSON.stringify({ ...lead, ...rest }));
  } else out(formatReport(report, v.path));
}
