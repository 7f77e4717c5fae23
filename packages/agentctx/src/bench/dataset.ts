import { isRecordType, type RecordType } from '../shared/types.js';

/** One record of a retrieval dataset (format: shared/bench/README.md). */
export interface BenchRecord {
  id: string;
  project: string;
  type: RecordType;
  title: string;
  body: string;
  valid_from: string;
}

export interface BenchQuery {
  id: string;
  project: string;
  query: string;
  relevant: string[];
  category: string;
}

export interface BenchDataset {
  name: string;
  records: BenchRecord[];
  queries: BenchQuery[];
}

function fail(msg: string): never {
  throw new Error(`bad dataset: ${msg}`);
}

function text(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0) fail(`${what} must be a non-empty string`);
  return v;
}

/** Validate parsed JSON as a dataset; a broken file is a one-line error, not a silent zero. */
export function parseDataset(raw: unknown): BenchDataset {
  if (!raw || typeof raw !== 'object') fail('not a JSON object');
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o.records) || !Array.isArray(o.queries)) fail('needs "records" and "queries" arrays');
  const ids = new Set<string>();
  const records = o.records.map((r: Record<string, unknown>, i): BenchRecord => {
    const id = text(r?.id, `records[${i}].id`);
    if (ids.has(id)) fail(`duplicate record id ${id}`);
    ids.add(id);
    if (!isRecordType(r.type)) fail(`records[${i}].type ${JSON.stringify(r.type)} is not a record type`);
    const validFrom = text(r.valid_from, `records[${i}].valid_from`);
    if (Number.isNaN(Date.parse(validFrom))) fail(`records[${i}].valid_from is not a date`);
    return {
      id,
      project: text(r.project, `records[${i}].project`),
      type: r.type,
      title: text(r.title, `records[${i}].title`),
      body: text(r.body, `records[${i}].body`),
      valid_from: validFrom,
    };
  });
  const queries = o.queries.map((q: Record<string, unknown>, i): BenchQuery => {
    const relevant = q?.relevant;
    if (!Array.isArray(relevant) || relevant.length === 0)
      fail(`queries[${i}].relevant must be a non-empty array`);
    for (const id of relevant)
      if (!ids.has(id as string)) fail(`queries[${i}] names unknown record ${String(id)}`);
    return {
      id: text(q.id, `queries[${i}].id`),
      project: text(q.project, `queries[${i}].project`),
      query: text(q.query, `queries[${i}].query`),
      relevant: relevant as string[],
      category: typeof q.category === 'string' && q.category ? q.category : 'uncategorised',
    };
  });
  return { name: typeof o.name === 'string' ? o.name : 'unnamed', records, queries };
}
