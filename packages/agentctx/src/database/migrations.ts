import type { Db as Database } from './sqlite.js';

/**
 * Versioned schema. Each entry upgrades `PRAGMA user_version` from its index to index + 1.
 * Never edit a migration that has shipped: append a new one.
 *
 * One exception, made so that a SQLite without FTS5 can open a store (CONTRACTS.md §rung-4): the
 * full-text index (records_fts, its triggers and records_fts_vocab) left migration 1 for
 * database/fts-index.ts, which creates it after the migrations on every connection whose SQLite
 * has FTS5. A store made before holds the same objects, so every store ends with one schema.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the schema of CONTRACTS.md §schema (its FTS5 index: database/fts-index.ts)
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

  -- Access paths beyond the spec's (performance only; no new columns).
  CREATE INDEX records_project_current ON records(project_id, superseded_at, type);
  CREATE INDEX records_superseded_by ON records(superseded_by);
  CREATE UNIQUE INDEX record_entities_pair ON record_entities(record_id, entity_id);
  CREATE INDEX record_entities_entity ON record_entities(entity_id);
  CREATE INDEX nodes_project ON nodes(project_id, kind);
  CREATE INDEX sessions_project ON sessions(project_id, started_at);
  `,
  // 2: consolidation bookkeeping (derived, CONTRACTS.md §stored-derived): near-duplicate merge
  // candidates found by the duplicate scan (never merged silently), and the last consolidation run
  // of each project.
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
  // 4: the semantic layer (derived, CONTRACTS.md §stored-derived). Vectors of the JavaScript
  // fallback store (the sqlite-vec table records_vec is created at run time, only where the
  // extension loads), and which model produced the stored vectors plus the vector near-duplicate
  // scan's watermarks.
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
  // (derived; database/term-df.ts), so a search does not walk posting lists to count them.
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
  // 6: the developer's "keep these two apart" answers to merge candidates (stored, CONTRACTS.md
  // §stored-derived): a decision, kept apart from the derived merge_candidates so that rebuilding
  // the candidates never proposes a dismissed pair again. The pair is ordered as merge_candidates
  // orders it (older record first). Dismissals made before this migration are carried over.
  `
  CREATE TABLE merge_dismissals (
    project_id   TEXT NOT NULL,
    id_a         TEXT NOT NULL,
    id_b         TEXT NOT NULL,
    dismissed_at TEXT NOT NULL,
    PRIMARY KEY (id_a, id_b)
  );
  CREATE INDEX merge_dismissals_project ON merge_dismissals(project_id);
  INSERT OR IGNORE INTO merge_dismissals (project_id, id_a, id_b, dismissed_at)
    SELECT project_id, record_a, record_b, detected_at FROM merge_candidates WHERE status = 'dismissed';
  `,
  // 7: invariants the database keeps itself.
  // (a) One current handover per project, one current profile record per key (its title)
  // (CONTRACTS.md §keyed): stores written before this have duplicates closed first, the newest
  // (the one the digest shows) kept and named as their successor, then partial unique indexes.
  // (b) Retirement counting (CONTRACTS.md §inv-3, database/retirement.ts): retiring or deleting a
  // current record of a type the SessionStart digest can show calls agentctx_retiring(), which every
  // agentctx connection defines. (Discoveries and bug fixes, retired after every test run, are
  // never in the digest; a test fails if the digest shows a type these triggers leave out.)
  `
  CREATE TEMP TABLE m7_retire AS
    SELECT id, keeper FROM (
      SELECT id,
        first_value(id) OVER w AS keeper,
        row_number() OVER w AS n
      FROM records
      WHERE superseded_at IS NULL AND type IN ('handover', 'profile')
      WINDOW w AS (
        PARTITION BY project_id, type, CASE WHEN type = 'profile' THEN title END
        ORDER BY valid_from DESC, id DESC
      )
    ) WHERE n > 1;
  UPDATE records SET
    superseded_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
    superseded_by = (SELECT keeper FROM m7_retire WHERE m7_retire.id = records.id)
  WHERE id IN (SELECT id FROM m7_retire);
  INSERT INTO edges (id, from_id, to_id, rel_type)
    SELECT 'm7-' || id, keeper, id, 'supersedes' FROM m7_retire;
  DROP TABLE m7_retire;

  CREATE UNIQUE INDEX records_one_current_handover ON records(project_id)
    WHERE type = 'handover' AND superseded_at IS NULL;
  CREATE UNIQUE INDEX records_one_current_profile_key ON records(project_id, title)
    WHERE type = 'profile' AND superseded_at IS NULL;

  CREATE TRIGGER records_retire_count AFTER UPDATE OF superseded_at ON records
    WHEN old.superseded_at IS NULL AND new.superseded_at IS NOT NULL
      AND old.type IN ('decision', 'convention', 'preference', 'handover', 'profile')
  BEGIN
    SELECT agentctx_retiring();
  END;
  CREATE TRIGGER records_delete_count AFTER DELETE ON records
    WHEN old.superseded_at IS NULL
      AND old.type IN ('decision', 'convention', 'preference', 'handover', 'profile')
  BEGIN
    SELECT agentctx_retiring();
  END;
  `,
  // 8: the session journal (stored, files/session-journal.ts): how far each journal file has
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
  // 9: team context through git (stored, CONTRACTS.md §files, §stored-derived;
  // database/team-repo.ts). team_links ties a block id of <repo>/.agentctx/context.md to a
  // supersession chain of this store (record_id is a record of the chain: its current head is found
  // through superseded_by, so a promoted chain stays promoted when superseded), with the block's
  // hash as last exported or imported and the developer's "promote" answer; shown_valid_from, an
  // earlier valid_from another clone gave the same text (the file shows the earliest, so two clones
  // write the same marker). team_sync holds the file's hash at the last export or import.
  `
  CREATE TABLE team_links (
    project_id TEXT NOT NULL,
    key        TEXT NOT NULL,
    record_id  TEXT NOT NULL,
    synced_sha TEXT NOT NULL DEFAULT '',
    promoted   INTEGER NOT NULL DEFAULT 0,
    shown_valid_from TEXT,
    PRIMARY KEY (project_id, key)
  );
  CREATE INDEX team_links_record ON team_links(record_id);
  CREATE TABLE team_sync (
    project_id TEXT PRIMARY KEY,
    file_sha   TEXT NOT NULL,
    synced_at  TEXT NOT NULL,
    action     TEXT NOT NULL
  );
  `,
  // 10: the secret scrub's bookkeeping (derived; database/scrub-repo.ts): per scanned table, the
  // redactor fingerprint it was last checked with and how far (rowid) that check got, and the
  // log files' checked lengths. Opening a store with it also stops older agentctx versions, whose
  // writes skip the redaction gate, from writing to it.
  `
  CREATE TABLE scrub_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 11: code-anchored staleness (database/file-anchors.ts). file_anchors (stored: the past cannot
  // be read again) keeps, per record and linked file, what the file was when the link was made:
  // a content hash, its line count, a sketch of its lines and the HEAD commit. record_staleness
  // (derived, rebuilt by each consolidation) holds the linked files that changed, moved or went
  // since, so every surface can label the record without reading a file or spawning git.
  `
  CREATE TABLE file_anchors (
    record_id    TEXT NOT NULL,
    path         TEXT NOT NULL,
    content_hash TEXT,
    lines        INTEGER,
    sketch       TEXT,
    commit_sha   TEXT,
    anchored_at  TEXT NOT NULL,
    PRIMARY KEY (record_id, path)
  ) WITHOUT ROWID;
  CREATE TABLE record_staleness (
    record_id     TEXT NOT NULL,
    project_id    TEXT NOT NULL,
    path          TEXT NOT NULL,
    state         TEXT NOT NULL,
    new_path      TEXT,
    commits       INTEGER,
    changed_share REAL,
    checked_at    TEXT NOT NULL,
    PRIMARY KEY (record_id, path)
  ) WITHOUT ROWID;
  CREATE INDEX record_staleness_project ON record_staleness(project_id);
  `,
  // 12: usage evidence (stored, database/usage-repo.ts). session_shown: which records each
  // session was shown (digest, prompt injection, ctx_search/ctx_get results), the injected tokens
  // attributed to each (an injection's tokens split evenly among its records) and, once judged
  // after the session (core/usage), whether it used it. record_usage: per record, how many
  // sessions were shown it, used it, contradicted it. The score drawn from them is derived.
  `
  CREATE TABLE session_shown (
    session_id TEXT NOT NULL,
    record_id  TEXT NOT NULL,
    via        TEXT NOT NULL,
    tokens     REAL NOT NULL DEFAULT 0,
    shown_at   TEXT NOT NULL,
    verdict    TEXT,
    evidence   TEXT,
    judged_at  TEXT,
    PRIMARY KEY (session_id, record_id)
  ) WITHOUT ROWID;
  CREATE INDEX session_shown_record ON session_shown(record_id);
  CREATE TABLE record_usage (
    record_id          TEXT PRIMARY KEY,
    shown_count        INTEGER NOT NULL DEFAULT 0,
    used_count         INTEGER NOT NULL DEFAULT 0,
    contradicted_count INTEGER NOT NULL DEFAULT 0,
    last_shown_at      TEXT,
    last_used_at       TEXT
  ) WITHOUT ROWID;
  `,
  // 13: term counts kept in step (database/term-df.ts). Consolidation adds the words of the records
  // written since its last run to `term_df`; a deleted record or a rewritten title or body takes
  // words away, which only a whole copy can count, so it drops the copy's `built` mark.
  `
  CREATE TRIGGER IF NOT EXISTS term_df_stale_ad AFTER DELETE ON records BEGIN
    DELETE FROM term_df_meta WHERE key = 'built';
  END;
  CREATE TRIGGER IF NOT EXISTS term_df_stale_au AFTER UPDATE OF title, body ON records
    WHEN old.title IS NOT new.title OR old.body IS NOT new.body BEGIN
    DELETE FROM term_df_meta WHERE key = 'built';
  END;
  `,
  // 14: incremental consolidation reruns (issue 20). records.content_key (derived,
  // database/content-keys.ts): a hash of the record's normalised type, title and body, filled by
  // consolidation where NULL and set back to NULL by a trigger whenever type, title or body is
  // rewritten (an edit, the secret scrub), so exact duplicates are found by grouping an index.
  // record_changes: one counter moved by every insert, delete and update of a record's stored
  // fields (not the derived score, drift score, key, embedding flag or access counts), so a rerun
  // can tell that the records it read last time are unchanged; a row deleted comes back with a
  // new random epoch, so the counter never repeats a value it had.
  `
  ALTER TABLE records ADD COLUMN content_key TEXT;
  CREATE INDEX records_current_content_key ON records(project_id, content_key, type)
    WHERE superseded_at IS NULL;
  CREATE TRIGGER records_content_key_stale AFTER UPDATE OF type, title, body ON records
    WHEN new.content_key IS NOT NULL
      AND (old.type IS NOT new.type OR old.title IS NOT new.title OR old.body IS NOT new.body)
  BEGIN
    UPDATE records SET content_key = NULL WHERE rowid = new.rowid;
  END;
  CREATE TABLE record_changes (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    epoch TEXT NOT NULL,
    seq   INTEGER NOT NULL
  );
  INSERT INTO record_changes (id, epoch, seq) VALUES (1, lower(hex(randomblob(8))), 0);
  CREATE TRIGGER record_changes_ai AFTER INSERT ON records BEGIN
    INSERT INTO record_changes (id, epoch, seq) VALUES (1, lower(hex(randomblob(8))), 1)
      ON CONFLICT(id) DO UPDATE SET seq = seq + 1;
  END;
  CREATE TRIGGER record_changes_ad AFTER DELETE ON records BEGIN
    INSERT INTO record_changes (id, epoch, seq) VALUES (1, lower(hex(randomblob(8))), 1)
      ON CONFLICT(id) DO UPDATE SET seq = seq + 1;
  END;
  CREATE TRIGGER record_changes_au AFTER UPDATE OF id, project_id, type, title, body, scope, pinned,
    confidence, reinforce_count, valid_from, recorded_at, superseded_at, superseded_by, source, session_id
    ON records BEGIN
    INSERT INTO record_changes (id, epoch, seq) VALUES (1, lower(hex(randomblob(8))), 1)
      ON CONFLICT(id) DO UPDATE SET seq = seq + 1;
  END;
  `,
  // 15: what each extraction actually used (issue 31 #2). The hooks' extraction runs in the
  // agent's environment, not the shell's: `status` and `doctor` read the backend from these
  // rows instead of guessing from their own environment. Pruned to the latest per project.
  `
  CREATE TABLE extraction_runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    at          TEXT NOT NULL,
    via         TEXT NOT NULL,
    mode        TEXT NOT NULL,
    configured  TEXT NOT NULL,
    backend     TEXT,
    model       TEXT,
    calls       INTEGER NOT NULL DEFAULT 0,
    cost_usd    REAL NOT NULL DEFAULT 0,
    reason      TEXT NOT NULL
  );
  CREATE INDEX extraction_runs_project ON extraction_runs(project_id, id);
  `,
  // 16: team conflicts waiting for a person (issue 31 #3). An import that finds a key changed
  // on both sides keeps every version (the latest current, the others in its history) and
  // notes the key here; export writes all its versions while it waits, so the other clone's
  // import sees the conflict too; \`agentctx review\` asks which version stays.
  `
  CREATE TABLE team_conflicts (
    project_id  TEXT NOT NULL,
    key         TEXT NOT NULL,
    record_ids  TEXT NOT NULL,
    dates       TEXT NOT NULL DEFAULT '{}',
    detected_at TEXT NOT NULL,
    PRIMARY KEY (project_id, key)
  );
  `,
  // 17: provenance (issue 30). Which coding agent's session wrote the record: 'claude-code',
  // 'codex'. Every record written before agentctx served another agent came from Claude Code.
  `
  ALTER TABLE records ADD COLUMN agent TEXT NOT NULL DEFAULT 'claude-code';
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Bring the file up to SCHEMA_VERSION. Each step runs in its own write transaction (BEGIN
 * IMMEDIATE: the write lock first, the busy timeout making other processes wait for it), and
 * reads the version again inside it: processes opening a new store together all see version 0
 * before the first of them has migrated, and only the one holding the lock may act on what it
 * read. The others find the work done when their turn comes.
 */
export function migrate(db: Database): void {
  const step = db.transaction((): boolean => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `agentctx.db has schema version ${current}, newer than this agentctx (${SCHEMA_VERSION}); upgrade agentctx`,
      );
    }
    if (current === SCHEMA_VERSION) return false;
    db.exec(MIGRATIONS[current]!);
    db.pragma(`user_version = ${current + 1}`);
    return true;
  });
  while (step.immediate()) {
    // one version per transaction, until there is nothing left to do
  }
}
