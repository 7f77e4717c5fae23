/**
 * Whether the process `pid` still runs, as a lock or claim file's holder: signal 0 reaches it,
 * or it exists but belongs to another user (EPERM).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
