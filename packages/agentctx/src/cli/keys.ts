import { createInterface, type Interface } from 'node:readline';

/**
 * Reading a developer's answers for interactive commands (`agentctx review`). On a terminal, one
 * keystroke (raw mode; Ctrl-C and Ctrl-D answer "q"); from a pipe, one line per answer, its
 * first character for a key — so scripts and tests can drive the same loop. End of input is "q".
 */

let lines: Interface | undefined;
const queued: string[] = [];
const waiting: ((line: string | null) => void)[] = [];
let ended = false;

function nextLine(): Promise<string | null> {
  if (!lines) {
    lines = createInterface({ input: process.stdin, terminal: false });
    lines.on('line', (l) => {
      const w = waiting.shift();
      if (w) w(l);
      else queued.push(l);
    });
    lines.on('close', () => {
      ended = true;
      for (const w of waiting.splice(0)) w(null);
    });
  }
  if (queued.length > 0) return Promise.resolve(queued.shift()!);
  if (ended) return Promise.resolve(null);
  return new Promise((resolve) => waiting.push(resolve));
}

/**
 * Keys that arrived before they were asked for: a terminal delivers typed-ahead or pasted keys
 * in one chunk, and each is the answer to one prompt (an escape sequence, e.g. an arrow key,
 * counts as one key).
 */
const typeahead: string[] = [];

export function splitKeys(chunk: string): string[] {
  const keys: string[] = [];
  const chars = [...chunk];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '\u001b') {
      // ESC, then a CSI/SS3 sequence: '[' or 'O', parameters, and one final letter or '~'
      let j = i + 1;
      if (chars[j] === '[' || chars[j] === 'O') {
        j++;
        while (j < chars.length && /[0-9;]/.test(chars[j]!)) j++;
        j++;
      }
      keys.push(chars.slice(i, Math.min(j, chars.length)).join(''));
      i = Math.min(j, chars.length) - 1;
    } else keys.push(chars[i]!);
  }
  return keys;
}

function answer(k: string): string {
  return k === '\u0003' || k === '\u0004' ? 'q' : k.slice(0, 1).toLowerCase();
}

function rawKey(): Promise<string> {
  const early = typeahead.shift();
  if (early !== undefined) return Promise.resolve(answer(early));
  return new Promise((resolve) => {
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.once('data', (d: Buffer) => {
      stdin.setRawMode(false);
      stdin.pause();
      const [first = '', ...rest] = splitKeys(d.toString('utf8'));
      typeahead.push(...rest);
      resolve(answer(first));
    });
  });
}

export async function readKey(prompt: string, write: (t: string) => void): Promise<string> {
  write(prompt);
  if (process.stdin.isTTY) {
    const k = await rawKey();
    write(`${k}\n`);
    return k;
  }
  const line = await nextLine();
  return line === null ? 'q' : (line.trim()[0] ?? '').toLowerCase();
}

export async function readLine(question: string, write: (t: string) => void): Promise<string | null> {
  if (process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    return new Promise((resolve) => {
      rl.question(question, (answer) => {
        rl.close();
        resolve(answer);
      });
      // keys typed ahead of this question are the start of its answer (a newline among them ends it)
      const early = typeahead.splice(0).filter((k) => !k.startsWith('\u001b'));
      if (early.length > 0) rl.write(early.join(''));
    });
  }
  write(question);
  return nextLine();
}

/** Let the process exit once the command is done with the pipe. */
export function closeKeys(): void {
  lines?.close();
}
