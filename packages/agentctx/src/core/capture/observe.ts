import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AnchorReader, anchorFiles, fileLinksOf } from '../../database/file-anchors.js';
import { addEdge, upsertNode } from '../../database/graph-repo.js';
import type { Db } from '../../database/open.js';
import type { Clock, IdGen } from '../../shared/clock.js';
import { BODY_MAX, TITLE_MAX } from '../../shared/types.js';
import { createRecord } from '../records/records.js';
import type { Redact } from '../redaction/redact.js';
import type { TestOutcome } from './observe-patterns.js';
import { type BranchOp, type Capture, prepareCapture, type ToolCall } from './prepare.js';

/**
 * Deterministic capture after a tool call (CONTRACTS.md §hook-post-tool-use, §stored-derived). No
 * model, no network:
 * - a file write/edit → a file node, linked to the session's records and marked
 *   `observed_in` the session (so records extracted later can be linked to it);
 * - a failing shell command → one `bugfix` stub per distinct error and session;
 * - a test run → a pass/fail `discovery`, one current per project and command;
 * - git commit/switch/merge → branch nodes tied to the session.
 */

interface ObserveDeps {
  db: Db;
  clock: Clock;
  newId: IdGen;
  projectId: string;
  /** The project's root folder; file nodes are named relative to it. */
  projectRoot: string;
  sessionId: string;
  /** The redaction gate's redactor (with the user's patterns); the built-in rules when absent. */
  redact?: Redact;
  /** The coding agent whose tool call this was (provenance of what it writes). */
  agent?: string;
}

interface Observation {
  files: string[];
  records: string[];
  branches: string[];
}

/** A file's node value: relative to the project root when inside it, else absolute. */
function fileNodeValue(root: string, cwd: string, path: string): string {
  const abs = isAbsolute(path) ? resolve(path) : resolve(cwd, path);
  const rel = relative(root, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return abs;
  return rel.split(sep).join('/');
}

function cut(text: string, max: number): string {
  const cps = [...text];
  return cps.length <= max ? text : `${cps.slice(0, max - 1).join('')}…`;
}

/**
 * Link every current record of this session (in the project) to a file, and anchor each to the
 * file as it is now: the session edited it again, and its records describe it as it leaves it.
 */
function linkSessionRecords(deps: ObserveDeps, entityId: string, value: string, reader: AnchorReader): void {
  deps.db
    .prepare(
      `INSERT OR IGNORE INTO record_entities (record_id, entity_id)
       SELECT id, ? FROM records WHERE session_id = ? AND project_id = ? AND superseded_at IS NULL`,
    )
    .run(entityId, deps.sessionId, deps.projectId);
  const ids = deps.db
    .prepare('SELECT id FROM records WHERE session_id = ? AND project_id = ? AND superseded_at IS NULL')
    .all(deps.sessionId, deps.projectId) as { id: string }[];
  const pairs = ids.map((r) => ({ recordId: r.id, path: value }));
  anchorFiles(deps.db, reader, pairs, deps.clock().toISOString(), true);
}

/** Link a record to every file the session has touched so far, anchored as they are now. */
function linkSessionFiles(deps: ObserveDeps, recordId: string, reader: AnchorReader): void {
  deps.db
    .prepare(
      `INSERT OR IGNORE INTO record_entities (record_id, entity_id)
       SELECT ?, e.from_id FROM edges e JOIN nodes n ON n.id = e.from_id
       WHERE e.to_id = ? AND e.rel_type = 'observed_in' AND n.kind = 'file' AND n.project_id = ?`,
    )
    .run(recordId, deps.sessionId, deps.projectId);
  anchorFiles(deps.db, reader, fileLinksOf(deps.db, [recordId]), deps.clock().toISOString());
}

function observeFile(
  deps: ObserveDeps,
  cwd: string,
  path: string,
  out: Observation,
  reader: AnchorReader,
): void {
  const value = fileNodeValue(deps.projectRoot, cwd, path);
  const node = upsertNode(deps.db, deps.newId, deps.projectId, 'file', value);
  if (deps.sessionId) {
    addEdge(deps.db, deps.newId, node, deps.sessionId, 'observed_in');
    linkSessionRecords(deps, node, value, reader);
  }
  out.files.push(value);
}

function recordBugfix(
  deps: ObserveDeps,
  command: string,
  errorLine: string,
  out: Observation,
  reader: AnchorReader,
): void {
  const title = cut(`Error: ${errorLine.replace(/^(?:Uncaught\s+)?Error:\s*/, '')}`, TITLE_MAX);
  const dup = deps.db
    .prepare(
      `SELECT id FROM records WHERE project_id = ? AND session_id IS ? AND type = 'bugfix'
         AND source = 'hook_observation' AND title = ? LIMIT 1`,
    )
    .get(deps.projectId, deps.sessionId || null, title);
  if (dup) return;
  const body = cut(`Command: ${cut(command, 600)}\nFirst error: ${errorLine}`, BODY_MAX);
  const rec = createRecord(recordsDeps(deps), {
    type: 'bugfix',
    title,
    body,
    confidence: 'inferred',
    source: 'hook_observation',
    sessionId: deps.sessionId || null,
  });
  if (deps.sessionId) linkSessionFiles(deps, rec.id, reader);
  out.records.push(rec.id);
}

function recordsDeps(deps: ObserveDeps) {
  return {
    db: deps.db,
    clock: deps.clock,
    newId: deps.newId,
    projectId: deps.projectId,
    redact: deps.redact,
    ...(deps.agent ? { agent: deps.agent } : {}),
  };
}

function testTitle(t: TestOutcome, command: string): string {
  const counts =
    t.failedCount !== undefined || t.passedCount !== undefined
      ? ` (${t.failedCount ?? 0} failed, ${t.passedCount ?? '?'} passed)`
      : '';
  return cut(`Tests ${t.passed ? 'pass' : 'fail'}${counts}: ${command.replace(/\s+/g, ' ')}`, TITLE_MAX);
}

function recordTestOutcome(
  deps: ObserveDeps,
  cwd: string,
  command: string,
  t: TestOutcome,
  out: Observation,
  reader: AnchorReader,
) {
  const key = `Command: ${cut(command.replace(/\s+/g, ' ').trim(), 600)}`;
  const title = testTitle(t, command);
  const lines = [
    key,
    `Outcome: ${t.passed ? 'passed' : 'failed'} (${t.runner})`,
    t.summary ? `Summary: ${t.summary}` : '',
    t.files.length ? `Test files: ${t.files.join(', ')}` : '',
  ].filter(Boolean);
  const body = cut(lines.join('\n'), BODY_MAX);
  // one current outcome per project and command: a new verdict supersedes the last
  const prev = deps.db
    .prepare(
      `SELECT id, title, recorded_at FROM records WHERE project_id = ? AND type = 'discovery' AND source = 'hook_observation'
         AND superseded_at IS NULL AND substr(body, 1, ?) = ? ORDER BY recorded_at DESC LIMIT 1`,
    )
    .get(deps.projectId, key.length + 1, `${key}\n`) as
    | { id: string; title: string; recorded_at: string }
    | undefined;
  // a spooled verdict written after a later one of the same command (capture/spool.ts): the
  // later verdict stands
  if (prev && prev.recorded_at > deps.clock().toISOString()) return;
  let recordId: string;
  if (prev && prev.title === title) {
    recordId = prev.id;
  } else {
    const rec = createRecord(recordsDeps(deps), {
      type: 'discovery',
      title,
      body,
      confidence: 'inferred',
      source: 'hook_observation',
      sessionId: deps.sessionId || null,
      supersedes: prev?.id ?? null,
    });
    recordId = rec.id;
    out.records.push(rec.id);
  }
  const anchors: { recordId: string; path: string }[] = [];
  for (const f of t.files) {
    const value = fileNodeValue(deps.projectRoot, cwd, f);
    const node = upsertNode(deps.db, deps.newId, deps.projectId, 'file', value);
    deps.db
      .prepare('INSERT OR IGNORE INTO record_entities (record_id, entity_id) VALUES (?, ?)')
      .run(recordId, node);
    anchors.push({ recordId, path: value });
  }
  anchorFiles(deps.db, reader, anchors, deps.clock().toISOString());
  if (deps.sessionId) linkSessionFiles(deps, recordId, reader);
}

function branchNode(deps: ObserveDeps, branch: string, out: Observation): string {
  const node = upsertNode(deps.db, deps.newId, deps.projectId, 'branch', branch);
  if (deps.sessionId) addEdge(deps.db, deps.newId, node, deps.sessionId, 'observed_in');
  if (!out.branches.includes(branch)) out.branches.push(branch);
  return node;
}

function observeGit(deps: ObserveDeps, ops: readonly BranchOp[], out: Observation): void {
  for (const op of ops) {
    if (op.op !== 'merge') branchNode(deps, op.branch, out);
    else {
      const merged = branchNode(deps, op.branch, out);
      if (op.into && op.into !== op.branch) {
        const target = branchNode(deps, op.into, out);
        addEdge(deps.db, deps.newId, target, merged, 'derives_from');
      }
    }
  }
}

/** Write a prepared capture. Runs in one write transaction (BEGIN IMMEDIATE). */
export function applyCapture(deps: ObserveDeps, capture: Capture): Observation {
  const out: Observation = { files: [], records: [], branches: [] };
  const reader = new AnchorReader(deps.projectRoot);
  const run = deps.db.transaction(() => {
    if (capture.kind === 'file') {
      observeFile(deps, capture.cwd, capture.file, out, reader);
      return;
    }
    if (capture.test) recordTestOutcome(deps, capture.cwd, capture.command, capture.test, out, reader);
    else if (capture.error) recordBugfix(deps, capture.command, capture.error, out, reader);
    observeGit(deps, capture.git, out);
  });
  run.immediate();
  return out;
}

/** Capture what one tool call tells us. Runs in one write transaction. */
export function observeToolUse(deps: ObserveDeps, call: ToolCall): Observation {
  const capture = prepareCapture(call, deps.projectRoot, deps.redact);
  return capture ? applyCapture(deps, capture) : { files: [], records: [], branches: [] };
}
