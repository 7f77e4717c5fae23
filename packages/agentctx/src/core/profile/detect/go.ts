import type { Findings } from './findings.js';
import type { ProfileFs } from './profile-fs.js';

/** Go: go.mod (the module path names the project), cmd/<name>/main.go entry points, go.work members. */
export function detectGo(fs: ProfileFs, f: Findings): void {
  const goMod = fs.read('go.mod');
  if (!goMod) return;
  const mod = /^module\s+(\S+)/m.exec(goMod)?.[1];
  f.name ??= mod ? mod.split('/').pop() : undefined;
  f.stack.push('Go');
  f.managers.push('go modules');
  f.build.push('go build ./...');
  f.test.push('go test ./...');
  f.lint.push(
    fs.exists('.golangci.yml') || fs.exists('.golangci.yaml') ? 'golangci-lint run' : 'go vet ./...',
  );
  for (const d of fs.list('cmd')) if (fs.exists(`cmd/${d}/main.go`)) f.entries.push(`cmd/${d}/main.go`);
  const goWork = fs.read('go.work');
  if (goWork)
    for (const m of goWork.matchAll(/^\s*(?:use\s+)?(\.\/?[^\s()]*)\s*$/gm)) f.workspaces.push(m[1]!);
}
