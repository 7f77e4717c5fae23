import type { Findings } from './findings.js';
import type { ProfileFs } from './profile-fs.js';
import { readTomlSections, tomlString, tomlStrings } from './toml.js';

/** Rust: Cargo.toml (package name, workspace members, a `[[bin]]` path); cargo runs everything. */
export function detectRust(fs: ProfileFs, f: Findings): void {
  const cargoText = fs.read('Cargo.toml');
  if (!cargoText) return;
  const cargo = readTomlSections(cargoText);
  f.name ??= tomlString(cargo.package?.name);
  f.stack.push('Rust');
  f.managers.push('cargo');
  f.build.push('cargo build');
  f.test.push('cargo test');
  f.lint.push('cargo clippy');
  f.workspaces.push(...tomlStrings(cargo.workspace?.members));
  const binPath = tomlString(cargo.bin?.path);
  if (binPath) f.entries.push(binPath);
}
