/**
 * The share of a record's weighted terms that CLAUDE.md must hold for the record to count as
 * covered (below it: missing). Its own module so that the SessionStart hook, which reads stored
 * drift scores through the digest, does not load the drift scan (and SQLite) with it.
 */
export const MATCH_COVERAGE = 0.55;
