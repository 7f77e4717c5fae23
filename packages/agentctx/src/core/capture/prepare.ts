import { headBranch } from '../../git/git-repo.js';
import { type Redact, redactSecrets } from '../redaction/redact.js';
import {
  commitBranch,
  editedFile,
  firstErrorLine,
  parseGitOps,
  parseTestOutcome,
  shellOutput,
  type TestOutcome,
} from './observe-patterns.js';

/** A finished tool call as PostToolUse reports it (see observe.ts). */
export interface ToolCall {
  toolName: string;
  toolInput: Record<string, unknown>;
  toolResponse: unknown;
  /** PostToolUseFailure's error text. */
  error?: string;
  cwd: string;
}

/** A git operation with the branches it names resolved when the tool call ended. */
export type BranchOp =
  | { op: 'switch' | 'commit'; branch: string }
  | { op: 'merge'; branch: string; into: string | null };

/**
 * What one tool call will write, decided without the store: the edited file, or a shell
 * command's redacted text, test verdict, first error line and branch operations. Plain data
 * (JSON-safe, secrets already redacted), so a capture that finds the store's write lock busy
 * can be spooled and written later (capture/spool.ts) exactly as it would have been now.
 */
export type Capture =
  | { kind: 'file'; file: string; cwd: string }
  | {
      kind: 'shell';
      command: string;
      cwd: string;
      test: TestOutcome | null;
      error: string | null;
      git: BranchOp[];
    };

/** The capture of one tool call, or null when it tells nothing worth a write. */
export function prepareCapture(
  call: ToolCall,
  projectRoot: string,
  redact: Redact = redactSecrets,
): Capture | null {
  const file = editedFile(call.toolName, call.toolInput);
  if (file) return { kind: 'file', file, cwd: call.cwd };
  if (call.toolName !== 'Bash' || typeof call.toolInput.command !== 'string') return null;
  // What is stored (command, error line, test summary) never keeps a secret: redacted here,
  // before it is cut to size (a cut secret is no longer recognisable), with the same redactor
  // the records gate applies again, so the dedup keys below match what is stored.
  const command = redact(String(call.toolInput.command).trim());
  if (!command) return null;
  const shell = shellOutput(call.toolResponse, call.error);
  if (shell.interrupted) return null;
  const text = redact(shell.text);
  const test = parseTestOutcome(command, text);
  const error = test ? null : firstErrorLine(command, text);
  const git: BranchOp[] = [];
  if (/\bgit\b/.test(command)) {
    for (const op of parseGitOps(command, text)) {
      if (op.op === 'switch') git.push({ op: 'switch', branch: op.branch });
      else if (op.op === 'commit') {
        const b = commitBranch(text) ?? headBranch(projectRoot);
        if (b) git.push({ op: 'commit', branch: b });
      } else git.push({ op: 'merge', branch: op.branch, into: headBranch(projectRoot) });
    }
  }
  if (!test && !error && git.length === 0) return null;
  return { kind: 'shell', command, cwd: call.cwd, test, error, git };
}
