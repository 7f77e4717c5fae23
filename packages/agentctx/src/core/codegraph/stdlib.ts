import { builtinModules } from 'node:module';

/**
 * Standard libraries are left out of the graph: two files that both import `os` or `node:fs`
 * are not related by it. Node's list comes from the runtime; Go's standard packages have no dot
 * in their first path element; Rust's are std, core, alloc and proc_macro; Python's are the
 * common modules below (a module missing here only adds a weak link, never a wrong one).
 */

const NODE = new Set(builtinModules.map((m) => m.replace(/^node:/, '').split('/')[0]!));

export function isNodeBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || NODE.has(spec.split('/')[0]!);
}

const PYTHON = new Set(
  `__future__ abc argparse array ast asyncio atexit base64 bisect builtins calendar collections
  concurrent contextlib contextvars copy csv ctypes dataclasses datetime decimal difflib dis email
  enum errno fnmatch fractions functools gc getpass gettext glob gzip hashlib heapq hmac html http
  importlib inspect io ipaddress itertools json keyword locale logging lzma math mimetypes
  multiprocessing numbers operator os pathlib pickle platform pprint queue random re reprlib
  secrets select selectors shlex shutil signal socket sqlite3 ssl stat statistics string struct
  subprocess sys sysconfig tarfile tempfile textwrap threading time timeit tomllib traceback types
  typing unicodedata unittest urllib uuid venv warnings weakref xml zipfile zlib
  zoneinfo`.split(/\s+/),
);

export function isPythonStdlib(top: string): boolean {
  return PYTHON.has(top);
}

export function isGoStdlib(path: string): boolean {
  return !path.split('/')[0]!.includes('.');
}

export function isRustStdlib(crate: string): boolean {
  return crate === 'std' || crate === 'core' || crate === 'alloc' || crate === 'proc_macro';
}
