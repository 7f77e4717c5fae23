import type { Database } from 'better-sqlite3';

/**
 * Versioned schema. Each entry upgrades `PRAGMA user_version` from its index to index + 1.
 * Never edit a migration that has shipped: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the schema of SPEC §3.1
  `
  CREATE TABLE records (
    id              TEXT PRIMARY KEY,
    project_id      TEXT NOT NULL,
    type            TEXT NOT NULL,
    title           TEXT NOT NULL,
    body            TEXT NOT NULL,
    scope           TEXT DEFAULT 'project',
    pinned          INTEGER DEFAULT 0,
    confidence      TEXT DEFAULT 'inferred',
    reinforce_count INTEGER DEFAULT 0,
    valid_from      TEXT NOT NULL,
    recorded_at     TEXT NOT NULL,
    superseded_at   TEXT,
    superseded_by   TEXT REFERENCES records(id),
    access_count    INTEGER DEFAULT 0,
    last_accessed   TEXT,
    score           REAL DEFAULT 1.0,
    claudemd_drift_score REAL DEFAULT 0.0,
    source          TEXT NOT NULL,
    session_id      TEXT,
    pending_embedding INTEGER DEFAULT 1
  );

  CREATE VIRTUAL TABLE records_fts USING fts5(title, body, content=records, content_rowid=rowid);

  CREATE TRIGGER records_fts_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts(rowid, title, body) VALUES (new.rowid, new.title, new.body);
  END;
  CREATE TRIGGER records_fts_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
  END;
  CREATE TRIGGER records_fts_au AFTER UPDATE OF title, body ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
    INSERT INTO records_fts(rowid, title, body) VALUES (new.rowid, new.title, new.body);
  END;

  CREATE TABLE nodes (
    id TEXT PRIMARY KEY, project_id TEXT,
    kind TEXT,
    name TEXT UNIQUE
  );
  CREATE TABLE edges (
    id TEXT PRIMARY KEY,
    from_id TEXT NOT NULL, to_id TEXT NOT NULL,
    rel_type TEXT NOT NULL,
    weight REAL DEFAULT 1.0
  );
  CREATE INDEX edges_from ON edges(from_id);
  CREATE INDEX edges_to ON edges(to_id);

  CREATE TABLE record_entities (record_id TEXT, entity_id TEXT);

  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY, project_id TEXT,
    started_at TEXT, ended_at TEXT,
    tokens_injected INTEGER DEFAULT 0, extraction_cost_usd REAL DEFAULT 0
  );

  -- Document frequencies, read to keep the rarest words of a long query.
  CREATE VIRTUAL TABLE records_fts_vocab USING fts5vocab(records_fts, 'row');

  -- Access paths beyond the spec's (performance only; no new columns).
  CREATE INDEX records_project_current ON records(project_id, superseded_at, type);
  CREATE INDEX records_superseded_by ON records(superseded_by);
  CREATE UNIQUE INDEX record_entities_pair ON record_entities(record_id, entity_id);
  CREATE INDEX record_entities_entity ON record_entities(entity_id);
  CREATE INDEX nodes_project ON nodes(project_id, kind);
  CREATE INDEX sessions_project ON sessions(project_id, started_at);
  `,
  // 2: consolidation bookkeeping (derived, SPEC §7): near-duplicate merge candidates found by the
  // duplicate scan (never merged silently), and the last consolidation run of each project.
  `
  CREATE TABLE merge_candidates (
    project_id  TEXT NOT NULL,
    type        TEXT NOT NULL,
    record_a    TEXT NOT NULL,
    record_b    TEXT NOT NULL,
    similarity  REAL NOT NULL,
    detected_at TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open',
    PRIMARY KEY (record_a, record_b)
  );
  CREATE INDEX merge_candidates_project ON merge_candidates(project_id, status);

  CREATE TABLE consolidation_runs (
    project_id   TEXT PRIMARY KEY,
    started_at   TEXT NOT NULL,
    finished_at  TEXT,
    duration_ms  INTEGER,
    summary      TEXT
  );
  `,
  // 3: session extraction — how far each transcript has been read, and LLM spend per day
  `
  CREATE TABLE extraction_state (
    session_id      TEXT PRIMARY KEY,
    transcript_path TEXT NOT NULL,
    byte_offset     INTEGER NOT NULL DEFAULT 0,
    updated_at      TEXT NOT NULL
  );

  CREATE TABLE extraction_costs (
    day  TEXT PRIMARY KEY,
    usd  REAL NOT NULL DEFAULT 0
  );
  `,
  // 4: the semantic layer (derived, SPEC §7). Vectors of the JavaScript fallback store (the
  // sqlite-vec table records_vec is created at run time, only where the extension loads), and
  // which model produced the stored vectors plus the vector near-duplicate scan's watermarks.
  `
  CREATE TABLE records_vec_js (
    record_id TEXT PRIMARY KEY,
    embedding BLOB NOT NULL
  );
  CREATE TABLE embedding_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE INDEX records_pending_embedding ON records(pending_embedding) WHERE pending_embedding = 1;
  `,
  // 5: document frequencies of the indexed words, copied from fts5vocab by consolidation
  // (derived; storage/term-df.ts), so a search does not walk posting lists to count them.
  `
  CREATE TABLE term_df (
    term TEXT PRIMARY KEY,
    doc  INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE term_df_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 6: the session journal (stored, storage/session-journal.ts): how far each journal file has
  // been folded into sessions (file_id, its inode and birth time, tells a file written anew),
  // and the session's working directory.
  `
  CREATE TABLE session_journal (
    file         TEXT PRIMARY KEY,
    file_id      TEXT NOT NULL,
    folded_bytes INTEGER NOT NULL,
    updated_at   TEXT NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE sessions ADD COLUMN cwd TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Bring the file up to SCHEMA_VERSION. Each step runs in its own transaction. */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `agentctx.db has schema version ${current}, newer than this agentctx (${SCHEMA_VERSION}); upgrade agentctx`,
    );
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    const step = db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    });
    step.immediate();
  }
}
