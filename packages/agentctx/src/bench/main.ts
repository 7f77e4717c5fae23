import { readFileSync } from 'node:fs';
import { parseDataset } from './dataset.js';
import { formatHybridReport, runHybridBench } from './hybrid.js';
import { measureLatency } from './latency.js';
import { type BenchPath, formatReport, runBench } from './run.js';
import { SPLITS, type Split, selectSplit } from './split.js';
import { formatFeedbackReport, runUsageFeedback } from './usage-feedback.js';

const PATHS: readonly BenchPath[] = ['hook', 'mcp', 'engine'];

/**
 * `bench:retrieval --dataset FILE [--path hook|mcp|engine] [--split all|tune|validate] [--json]`
 * and `--latency N[,N…]`; returns the exit code.
 */
export function main(argv: readonly string[]): number | Promise<number> {
  let dataset: string | undefined;
  let hybrid = false;
  let modelPath: string | undefined;
  let model = 'glove-sif-384-q8';
  let json = false;
  let latency: number[] | undefined;
  let path: BenchPath = 'hook';
  let split: Split = 'all';
  let feedback = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--hybrid') hybrid = true;
    else if (a === '--usage-feedback') feedback = true;
    else if (a === '--model-path') modelPath = argv[++i];
    else if (a === '--model') model = argv[++i] ?? model;
    else if (a === '--dataset') dataset = argv[++i];
    else if (a?.startsWith('--dataset=')) dataset = a.slice('--dataset='.length);
    else if (a === '--path' && PATHS.includes(argv[i + 1] as BenchPath)) path = argv[++i] as BenchPath;
    else if (a === '--split' && SPLITS.includes(argv[i + 1] as Split)) split = argv[++i] as Split;
    else if (a === '--latency') latency = (argv[++i] ?? '').split(',').map(Number);
    else {
      process.stderr.write(`bench:retrieval: unknown argument ${a}\n`);
      return 2;
    }
  }
  if (latency) {
    if (latency.some((n) => !Number.isInteger(n) || n < 1)) {
      process.stderr.write('bench:retrieval: --latency takes record counts, e.g. 10000,100000\n');
      return 2;
    }
    const reports = latency.map((n) => measureLatency(n));
    if (json) process.stdout.write(`${JSON.stringify({ latency: reports })}\n`);
    else
      for (const r of reports)
        process.stdout.write(
          `${r.records} records: ${r.promptWords}-word prompt median ${r.medianMs} ms, p95 ${r.p95Ms} ms; 5-word prompt median ${r.shortMedianMs} ms\n`,
        );
    if (!dataset) return 0;
  }
  if (!dataset) {
    process.stderr.write(
      'usage: bench:retrieval --dataset FILE [--path hook|mcp|engine] [--split all|tune|validate] [--json] | --latency 10000,100000\n',
    );
    return 2;
  }
  let data: ReturnType<typeof parseDataset>;
  try {
    data = selectSplit(parseDataset(JSON.parse(readFileSync(dataset, 'utf8'))), split);
  } catch (err) {
    process.stderr.write(`bench:retrieval: ${(err as Error).message}\n`);
    return 1;
  }
  if (hybrid) {
    if (!modelPath) {
      process.stderr.write('bench:retrieval: --hybrid needs --model-path DIR (a folder holding the model)\n');
      return 2;
    }
    return runHybridBench(data, modelPath, model).then(
      (r) => {
        process.stdout.write(json ? `${JSON.stringify(r)}\n` : `${formatHybridReport(r)}\n`);
        return 0;
      },
      (err: unknown) => {
        process.stderr.write(`bench:retrieval: ${(err as Error).message}\n`);
        return 1;
      },
    );
  }
  if (feedback) {
    const sweep = process.env.AGENTCTX_USAGE_SWEEP; // "slope,min,max;…": figures per setting
    if (sweep) {
      for (const spec of sweep.split(';')) {
        const [slope, min, max] = spec.split(',').map(Number);
        const r = runUsageFeedback(data, 5, { slope, min, max });
        process.stdout.write(`slope ${slope} bounds [${min}, ${max}]\n${formatFeedbackReport(r)}\n`);
      }
      return 0;
    }
    const r = runUsageFeedback(data);
    process.stdout.write(json ? `${JSON.stringify(r)}\n` : `${formatFeedbackReport(r)}\n`);
    return 0;
  }
  const report = runBench(data);
  if (json) {
    const { hook, engine, mcp, baseline, queries, categories, records, engineMsPerQuery } = report;
    const out = { split, engine, baseline, queries, categories, records, engineMsPerQuery };
    const lead = path === 'hook' ? { hook } : path === 'mcp' ? { mcp } : {};
    process.stdout.write(`${JSON.stringify({ ...lead, ...out })}\n`);
  } else process.stdout.write(`${formatReport(report, path)}\n`);
  return 0;
}
