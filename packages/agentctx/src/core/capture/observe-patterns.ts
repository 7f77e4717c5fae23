/**
 * Pure pattern matching over tool calls for deterministic capture (CONTRACTS.md §stored-derived):
 * which file a writing tool touched, whether a shell command failed with a recognisable error, what
 * a test run reported, and which git operation ran. No I/O here; `observe.ts` applies the results.
 */

const FILE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;

/** The path a writing tool touched, or null. */
export function editedFile(toolName: string, input: Record<string, unknown>): string | null {
  if (!(FILE_TOOLS as readonly string[]).includes(toolName)) return null;
  const p = input.file_path ?? input.notebook_path ?? input.path;
  return typeof p === 'string' && p.trim() ? p.trim() : null;
}

/** stdout and stderr of a Bash tool response, whatever shape it arrived in. */
export function shellOutput(response: unknown, error = ''): { text: string; interrupted: boolean } {
  if (typeof response === 'string') return { text: `${response}\n${error}`.trim(), interrupted: false };
  if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
    const r = response as Record<string, unknown>;
    const parts: string[] = [];
    for (const k of ['stdout', 'stderr', 'output', 'error']) {
      const v = r[k];
      if (typeof v === 'string' && v) parts.push(v);
    }
    if (error) parts.push(error);
    return { text: parts.join('\n'), interrupted: r.interrupted === true };
  }
  return { text: error, interrupted: false };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in tool output
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Commands that only read or print: their output mentioning "Error" is content, not failure. */
const READ_ONLY =
  /^(?:sudo\s+)?(?:cat|less|more|head|tail|grep|egrep|fgrep|rg|ag|ack|find|fd|ls|tree|echo|printf|wc|sed\s+-n|awk|jq|diff|git\s+(?:log|show|diff|grep|blame|status)|which|type|man|file|stat)\b/;

const ERROR_LINE: readonly RegExp[] = [
  /^\s*(?:Uncaught\s+)?[A-Z][A-Za-z]*(?:Error|Exception)(?:\s*\[[A-Z0-9_]+\])?:\s*\S/,
  /^\s*Error(?:\s*\[[A-Z0-9_]+\])?:\s*\S/,
  /^Traceback \(most recent call last\):/,
  /^panic: /,
  /^(?:fatal|error)(?:\[E\d+\])?: \S/,
  /\berror TS\d+: /,
  /^npm (?:ERR!|error) /,
  /: command not found$/,
  /^E\s+[A-Z][A-Za-z]*(?:Error|Exception)\b/,
  /^Segmentation fault/,
  /^\S+:\d+:\d+: error: /,
];

/** The first line of `output` that reads as an error, trimmed, or null. */
export function firstErrorLine(command: string, output: string): string | null {
  if (READ_ONLY.test(command.trim())) return null;
  const lines = stripAnsi(output).split(/\r?\n/);
  let traceback = false;
  for (const raw of lines.slice(0, 4000)) {
    const line = raw.trimEnd();
    if (!line) continue;
    if (/^Traceback \(most recent call last\):/.test(line)) {
      traceback = true; // the exception line that ends the traceback says more
      continue;
    }
    if (traceback) {
      if (/^[A-Za-z_.]*(?:Error|Exception|Interrupt|Exit)\b/.test(line)) return line.trim().slice(0, 300);
      continue;
    }
    if (ERROR_LINE.some((re) => re.test(line))) return line.trim().slice(0, 300);
  }
  return traceback ? 'Traceback (most recent call last)' : null;
}

type TestRunner = 'vitest' | 'jest' | 'pytest' | 'go' | 'cargo' | 'node' | 'mocha' | 'npm';

export interface TestOutcome {
  runner: TestRunner;
  passed: boolean;
  /** Counts when the output states them. */
  failedCount?: number;
  passedCount?: number;
  /** The one-line summary the runner printed, if found. */
  summary?: string;
  /** Test files named in the command or in the failure report (relative as printed). */
  files: string[];
}

const TEST_COMMANDS: readonly [RegExp, TestRunner][] = [
  [/\bvitest\b/, 'vitest'],
  [/\bjest\b/, 'jest'],
  [/\b(?:py\.?test|python3?\s+-m\s+pytest)\b/, 'pytest'],
  [/\bgo\s+test\b/, 'go'],
  [/\bcargo\s+(?:test|nextest)\b/, 'cargo'],
  [/\bnode\s+(?:[^|;&]*\s)?--test\b/, 'node'],
  [/\bmocha\b/, 'mocha'],
  [/\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b|\b(?:npm|pnpm|yarn)\s+t\b|\bmake\s+test\b/, 'npm'],
];

/** Which test runner a command invokes, or null. */
export function testRunnerOf(command: string): TestRunner | null {
  for (const [re, runner] of TEST_COMMANDS) if (re.test(command)) return runner;
  return null;
}

const TEST_FILE =
  /(?:^|[\s'"=(])((?:[\w.@-]+\/)*(?:[\w.-]+\.(?:test|spec)\.[cm]?[jt]sx?|test_[\w-]+\.py|[\w-]+_test\.(?:py|go)|[\w-]+_spec\.rb))\b/g;

/** Test file paths mentioned in text, in order, without duplicates. */
export function testFilesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TEST_FILE)) {
    const f = m[1]!.replace(/^(?:\.\/)+/, '');
    if (!out.includes(f)) out.push(f);
    if (out.length >= 10) break;
  }
  return out;
}

function num(s: string | undefined): number | undefined {
  return s === undefined ? undefined : Number(s);
}

/** Parse a test run's output. Null when the command is not a test run or no verdict is printed. */
export function parseTestOutcome(command: string, output: string): TestOutcome | null {
  const runner = testRunnerOf(command);
  if (!runner) return null;
  const text = stripAnsi(output);
  let failed: number | undefined;
  let passed: number | undefined;
  let summary: string | undefined;
  let verdict: boolean | undefined;

  // vitest: "Tests  2 failed | 10 passed (12)"; jest: "Tests:       1 failed, 5 passed, 6 total"
  const tests = /^\s*Tests:?\s+(.*\d.*)$/m.exec(text);
  if (tests) {
    summary = tests[0].trim();
    failed = num(/(\d+) failed/.exec(tests[1]!)?.[1]) ?? 0;
    passed = num(/(\d+) passed/.exec(tests[1]!)?.[1]);
    verdict = failed === 0 && (passed ?? 0) > 0;
  }
  // pytest: "==== 1 failed, 3 passed in 0.12s ====" / "==== 4 passed in 0.05s ===="
  const py = /^=+ (.*\b(?:passed|failed|error|errors)\b.* in [\d.]+s.*?) =+$/m.exec(text);
  if (verdict === undefined && py) {
    summary = py[1]!.trim();
    failed = (num(/(\d+) failed/.exec(py[1]!)?.[1]) ?? 0) + (num(/(\d+) errors?\b/.exec(py[1]!)?.[1]) ?? 0);
    passed = num(/(\d+) passed/.exec(py[1]!)?.[1]);
    verdict = failed === 0;
  }
  // cargo: "test result: FAILED. 4 passed; 1 failed; …"
  const cargo = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed/m.exec(text);
  if (verdict === undefined && cargo) {
    summary = cargo[0];
    passed = num(cargo[2]);
    failed = num(cargo[3]);
    verdict = cargo[1] === 'ok' && failed === 0;
  }
  // node --test / TAP: "# pass 5" "# fail 1"
  const tapPass = /^(?:#|ℹ) pass (\d+)$/m.exec(text);
  const tapFail = /^(?:#|ℹ) fail (\d+)$/m.exec(text);
  if (verdict === undefined && tapPass && tapFail) {
    passed = num(tapPass[1]);
    failed = num(tapFail[1]);
    summary = `pass ${passed}, fail ${failed}`;
    verdict = failed === 0;
  }
  // mocha: "  5 passing (20ms)" / "  1 failing"
  const mochaPass = /^\s+(\d+) passing\b/m.exec(text);
  if (verdict === undefined && mochaPass) {
    passed = num(mochaPass[1]);
    failed = num(/^\s+(\d+) failing\b/m.exec(text)?.[1]) ?? 0;
    summary = `${passed} passing, ${failed} failing`;
    verdict = failed === 0;
  }
  // go: "--- FAIL: TestX", "FAIL\tpkg", "ok  \tpkg\t0.1s"
  if (verdict === undefined && (runner === 'go' || /^(?:ok|FAIL)\s+\S+\s/m.test(text))) {
    const goFails = text.match(/^--- FAIL: /gm)?.length ?? 0;
    const pkgFail = /^FAIL\s+\S+/m.exec(text);
    const pkgOk = /^ok\s+\S+/m.exec(text);
    if (goFails > 0 || pkgFail) {
      verdict = false;
      failed = goFails || undefined;
      summary = pkgFail?.[0];
    } else if (pkgOk) {
      verdict = true;
      summary = pkgOk[0];
    }
  }
  if (verdict === undefined) return null;

  const files = testFilesIn(command);
  if (!verdict) {
    // vitest/jest "FAIL  path", pytest "FAILED path::test", go "--- FAIL" has no path
    for (const m of text.matchAll(/^\s*(?:FAIL|FAILED|✗|×)\s+([^\s:>]+)/gm)) {
      for (const f of testFilesIn(` ${m[1]!}`)) if (!files.includes(f)) files.push(f);
    }
  }
  const out: TestOutcome = { runner, passed: verdict, files: files.slice(0, 10) };
  if (failed !== undefined) out.failedCount = failed;
  if (passed !== undefined) out.passedCount = passed;
  if (summary) out.summary = summary.replace(/\s+/g, ' ').slice(0, 200);
  return out;
}

type GitOp =
  | { op: 'commit'; message?: string }
  | { op: 'switch'; branch: string; created: boolean }
  | { op: 'merge'; branch: string };

function tokens(cmd: string): string[] {
  return [...cmd.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/**
 * The git operations in a shell command (`a && git commit … && git switch b`). Output that
 * shows the operation failed drops it. Branch names are the command's, not resolved.
 */
export function parseGitOps(command: string, output: string): GitOp[] {
  const text = stripAnsi(output);
  if (/^(?:fatal|error): /m.test(text)) return [];
  const ops: GitOp[] = [];
  for (const segment of command.split(/&&|\|\||;|\n/)) {
    const t = tokens(segment.trim());
    const gi = t.indexOf('git');
    if (gi === -1) continue;
    // skip global options such as -C dir, -c k=v
    let i = gi + 1;
    while (i < t.length && t[i]!.startsWith('-')) i += t[i] === '-C' || t[i] === '-c' ? 2 : 1;
    const sub = t[i];
    const rest = t.slice(i + 1);
    if (sub === 'commit') {
      const mi = rest.findIndex((a) => a === '-m' || a === '--message');
      const message = mi >= 0 ? rest[mi + 1] : undefined;
      ops.push(message ? { op: 'commit', message } : { op: 'commit' });
    } else if (sub === 'checkout' || sub === 'switch') {
      if (rest.includes('--')) continue; // checkout of files
      const created = rest.some((a) => a === '-b' || a === '-B' || a === '-c' || a === '-C');
      const positional = rest.filter((a) => !a.startsWith('-'));
      const branch = positional[0];
      if (!branch || branch === '.' || /[\\/]\.|\.\w{1,5}$/.test(branch)) continue; // a path, probably
      ops.push({ op: 'switch', branch, created });
    } else if (sub === 'merge') {
      if (rest.some((a) => a === '--abort' || a === '--continue' || a === '--quit')) continue;
      const branch = rest.filter((a) => !a.startsWith('-'))[0];
      if (branch) ops.push({ op: 'merge', branch });
    }
  }
  return ops;
}

/** The branch a `git commit` printed ("[main 1a2b3c4] message"), or null. */
export function commitBranch(output: string): string | null {
  const m = /^\[([^\s\]]+)(?: \(root-commit\))? [0-9a-f]{5,40}\]/m.exec(stripAnsi(output));
  return m ? m[1]! : null;
}
