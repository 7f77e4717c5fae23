import { describe, expect, it } from 'vitest';
import {
  commitBranch,
  editedFile,
  firstErrorLine,
  parseGitOps,
  parseTestOutcome,
  shellOutput,
  testFilesIn,
  testRunnerOf,
} from '../../../../src/core/capture/observe-patterns.js';

describe('editedFile', () => {
  it('knows the writing tools and their path fields', () => {
    expect(editedFile('Write', { file_path: '/r/a.ts' })).toBe('/r/a.ts');
    expect(editedFile('Edit', { file_path: 'b.ts' })).toBe('b.ts');
    expect(editedFile('MultiEdit', { file_path: 'c.ts', edits: [] })).toBe('c.ts');
    expect(editedFile('NotebookEdit', { notebook_path: 'n.ipynb' })).toBe('n.ipynb');
    expect(editedFile('Read', { file_path: 'a.ts' })).toBeNull();
    expect(editedFile('Write', { file_path: 42 })).toBeNull();
    expect(editedFile('Write', {})).toBeNull();
  });
});

describe('shellOutput', () => {
  it('joins stdout, stderr and the failure text whatever the shape', () => {
    expect(shellOutput({ stdout: 'a', stderr: 'b', interrupted: false })).toEqual({
      text: 'a\nb',
      interrupted: false,
    });
    expect(shellOutput({ stdout: 'a', interrupted: true }).interrupted).toBe(true);
    expect(shellOutput('plain').text).toBe('plain');
    expect(shellOutput(undefined, 'Error: boom').text).toBe('Error: boom');
    expect(shellOutput([1, 2]).text).toBe('');
  });
});

describe('firstErrorLine', () => {
  const cases: [string, string, string | null][] = [
    ['node x.js', 'ok\nTypeError: x is not a function\n    at y', 'TypeError: x is not a function'],
    [
      'npm run build',
      'src/a.ts(3,4): error TS2322: Type string is not assignable',
      'src/a.ts(3,4): error TS2322: Type string is not assignable',
    ],
    [
      'python m.py',
      'Traceback (most recent call last):\n  File "m.py", line 1\nKeyError: \'id\'',
      "KeyError: 'id'",
    ],
    ['go run .', 'panic: runtime error: index out of range', 'panic: runtime error: index out of range'],
    ['cargo build', 'error[E0382]: borrow of moved value: `v`', 'error[E0382]: borrow of moved value: `v`'],
    ['git push', 'fatal: not a git repository', 'fatal: not a git repository'],
    ['npm install', 'npm ERR! code ERESOLVE', 'npm ERR! code ERESOLVE'],
    ['foo', 'bash: foo: command not found', 'bash: foo: command not found'],
    ['gcc a.c', 'a.c:3:5: error: expected ; before }', 'a.c:3:5: error: expected ; before }'],
    ['make', '\u001b[31mError: build failed\u001b[0m', 'Error: build failed'],
    ['npm run build', 'built in 1.2s\n0 errors', null],
    ['grep -rn Error src', 'src/a.ts:1:TypeError: nope', null],
    ['cat log.txt', 'Error: old failure', null],
    ['git log', 'fatal: in a commit message', null],
  ];
  for (const [cmd, out, want] of cases) {
    it(`${cmd} → ${want ?? 'nothing'}`, () => expect(firstErrorLine(cmd, out)).toBe(want));
  }
});

describe('test runs', () => {
  it('recognises runners by command', () => {
    expect(testRunnerOf('npx vitest run')).toBe('vitest');
    expect(testRunnerOf('yarn jest --ci')).toBe('jest');
    expect(testRunnerOf('python -m pytest -q')).toBe('pytest');
    expect(testRunnerOf('go test ./...')).toBe('go');
    expect(testRunnerOf('cargo test --all')).toBe('cargo');
    expect(testRunnerOf('node --test test/')).toBe('node');
    expect(testRunnerOf('npm test')).toBe('npm');
    expect(testRunnerOf('pnpm run test -- --watch=false')).toBe('npm');
    expect(testRunnerOf('npm run build')).toBeNull();
    expect(testRunnerOf('cat test.txt')).toBeNull();
  });

  it('parses verdicts and counts', () => {
    expect(parseTestOutcome('npx vitest', '      Tests  2 failed | 10 passed (12)')).toMatchObject({
      runner: 'vitest',
      passed: false,
      failedCount: 2,
      passedCount: 10,
    });
    expect(parseTestOutcome('npx jest', 'Tests:       5 passed, 5 total')).toMatchObject({
      passed: true,
      failedCount: 0,
      passedCount: 5,
    });
    expect(parseTestOutcome('pytest', '==== 1 failed, 3 passed in 0.12s ====')).toMatchObject({
      passed: false,
      failedCount: 1,
    });
    expect(parseTestOutcome('pytest', '==== 4 passed in 0.05s ====')).toMatchObject({
      passed: true,
      passedCount: 4,
    });
    expect(parseTestOutcome('pytest', '==== 1 error in 0.05s ====')).toMatchObject({
      passed: false,
      failedCount: 1,
    });
    expect(
      parseTestOutcome('cargo test', 'test result: FAILED. 4 passed; 1 failed; 0 ignored'),
    ).toMatchObject({
      passed: false,
      failedCount: 1,
      passedCount: 4,
    });
    expect(
      parseTestOutcome('go test ./...', 'ok  \texample.com/a\t0.01s\nok  \texample.com/b\t0.02s'),
    ).toMatchObject({ passed: true });
    expect(
      parseTestOutcome('go test ./...', '--- FAIL: TestA (0.00s)\nFAIL\texample.com/a\t0.01s'),
    ).toMatchObject({ passed: false });
    expect(parseTestOutcome('node --test', 'ℹ tests 3\nℹ pass 3\nℹ fail 0')).toMatchObject({
      passed: true,
      passedCount: 3,
    });
    expect(parseTestOutcome('npx mocha', '  5 passing (20ms)\n  1 failing')).toMatchObject({
      passed: false,
      failedCount: 1,
    });
    expect(parseTestOutcome('npm test', 'no summary here')).toBeNull();
    expect(parseTestOutcome('npm run build', 'Tests  1 failed')).toBeNull();
  });

  it('finds the test files in the command and the failure report', () => {
    expect(testFilesIn('npx vitest run test/a.test.ts src/b.spec.tsx')).toEqual([
      'test/a.test.ts',
      'src/b.spec.tsx',
    ]);
    expect(testFilesIn('pytest tests/test_api.py pkg/util_test.py')).toEqual([
      'tests/test_api.py',
      'pkg/util_test.py',
    ]);
    expect(testFilesIn('go test ./pkg/parse_test.go')).toEqual(['pkg/parse_test.go']);
    const out = parseTestOutcome(
      'npx jest',
      'FAIL src/cart.test.js\n  ● totals\nTests:       1 failed, 2 passed, 3 total',
    );
    expect(out?.files).toEqual(['src/cart.test.js']);
    const py = parseTestOutcome(
      'pytest',
      'FAILED tests/test_x.py::test_y - assert 1 == 2\n==== 1 failed in 0.1s ====',
    );
    expect(py?.files).toEqual(['tests/test_x.py']);
  });
});

describe('git operations', () => {
  it('parses switch, checkout -b, commit and merge from compound commands', () => {
    expect(parseGitOps('git switch -c feat/x', '')).toEqual([
      { op: 'switch', branch: 'feat/x', created: true },
    ]);
    expect(parseGitOps('git checkout main && git pull', '')).toEqual([
      { op: 'switch', branch: 'main', created: false },
    ]);
    expect(parseGitOps('git add . && git commit -m "fix: ledger"', '')).toEqual([
      { op: 'commit', message: 'fix: ledger' },
    ]);
    expect(parseGitOps('git -C repo merge --no-ff release/1.2', '')).toEqual([
      { op: 'merge', branch: 'release/1.2' },
    ]);
  });
  it('ignores file checkouts, aborted merges and failed operations', () => {
    expect(parseGitOps('git checkout -- src/a.ts', '')).toEqual([]);
    expect(parseGitOps('git checkout src/a.ts', '')).toEqual([]);
    expect(parseGitOps('git merge --abort', '')).toEqual([]);
    expect(parseGitOps('git checkout nope', "error: pathspec 'nope' did not match")).toEqual([]);
    expect(parseGitOps('git status', '')).toEqual([]);
  });
  it('reads the branch from commit output', () => {
    expect(commitBranch('[main 1a2b3c4] msg\n 1 file changed')).toBe('main');
    expect(commitBranch('[feature/x (root-commit) abcdef0] init')).toBe('feature/x');
    expect(commitBranch('nothing to commit')).toBeNull();
  });
});
