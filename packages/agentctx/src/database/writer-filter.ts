/**
 * Which writers' records a reader may see: values of `records.agent` (migration 17), opaque
 * here. `only` keeps the records of those writers; `except` drops them. app/agent-scope.ts
 * turns the user's setting into one of these; core/ and database/ never know what the values
 * name. Undefined, or both lists empty, is every record.
 */
export interface WriterFilter {
  only?: readonly string[];
  except?: readonly string[];
}

/** `AND <alias>agent IN (…)` / `NOT IN (…)` for a WHERE clause ('' for no filter), and its arguments. */
export function writerSql(f: WriterFilter | undefined, alias = ''): { sql: string; args: string[] } {
  const col = alias ? `${alias}.agent` : 'agent';
  if (f?.only) {
    // an empty `only` lets nothing through, as it says
    return { sql: ` AND ${col} IN (SELECT value FROM json_each(?))`, args: [JSON.stringify(f.only)] };
  }
  if (f?.except && f.except.length > 0) {
    return { sql: ` AND ${col} NOT IN (SELECT value FROM json_each(?))`, args: [JSON.stringify(f.except)] };
  }
  return { sql: '', args: [] };
}

/** Whether a record written by `writer` passes the filter (the same rule as writerSql). */
export function writerAllowed(f: WriterFilter | undefined, writer: string): boolean {
  if (f?.only) return f.only.includes(writer);
  if (f?.except) return !f.except.includes(writer);
  return true;
}

/**
 * A stable name of the filter, stamped into the digest file it was composed under: a digest
 * composed under another filter is not the one to show. '' for no filter.
 */
export function writerKey(f: WriterFilter | undefined): string {
  if (f?.only) return `only:${[...f.only].sort().join(',')}`;
  if (f?.except && f.except.length > 0) return `except:${[...f.except].sort().join(',')}`;
  return '';
}
