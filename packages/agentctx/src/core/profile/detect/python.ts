import type { Findings } from './findings.js';
import type { ProfileFs } from './profile-fs.js';
import { readTomlSections, type Toml, tomlString, tomlStrings } from './toml.js';

/** Python: pyproject.toml, setup.py, requirements.txt and the lockfile of the package manager. */

const PY_FRAMEWORKS: [RegExp, string][] = [
  [/^django\b/i, 'Django'],
  [/^flask\b/i, 'Flask'],
  [/^fastapi\b/i, 'FastAPI'],
  [/^pydantic\b/i, 'Pydantic'],
  [/^sqlalchemy\b/i, 'SQLAlchemy'],
  [/^pytest\b/i, 'pytest'],
  [/^numpy\b/i, 'NumPy'],
  [/^pandas\b/i, 'pandas'],
  [/^torch\b/i, 'PyTorch'],
];

function pythonManager(fs: ProfileFs, toml: Toml): string | undefined {
  if (fs.exists('uv.lock')) return 'uv';
  if (fs.exists('poetry.lock') || toml['tool.poetry']) return 'poetry';
  if (fs.exists('pdm.lock') || toml['tool.pdm']) return 'pdm';
  if (fs.exists('Pipfile.lock') || fs.exists('Pipfile')) return 'pipenv';
  if (toml['tool.hatch'] || toml['tool.hatch.envs.default']) return 'hatch';
  if (fs.exists('requirements.txt') || fs.exists('pyproject.toml') || fs.exists('setup.py')) return 'pip';
  return undefined;
}

function pyRun(pm: string | undefined, cmd: string): string {
  if (pm === 'uv') return `uv run ${cmd}`;
  if (pm === 'poetry') return `poetry run ${cmd}`;
  if (pm === 'pdm') return `pdm run ${cmd}`;
  if (pm === 'pipenv') return `pipenv run ${cmd}`;
  return cmd;
}

export function detectPython(fs: ProfileFs, f: Findings): void {
  const pyText = fs.read('pyproject.toml');
  const py = pyText ? readTomlSections(pyText) : {};
  if (!(pyText || fs.exists('setup.py') || fs.exists('requirements.txt'))) return;
  f.name ??= tomlString(py.project?.name) ?? tomlString(py['tool.poetry']?.name);
  f.stack.push('Python');
  const deps = [
    ...tomlStrings(py.project?.dependencies),
    ...Object.values(py['project.optional-dependencies'] ?? {}).flatMap(tomlStrings),
    ...Object.values(py['dependency-groups'] ?? {}).flatMap(tomlStrings),
    ...Object.keys(py['tool.poetry.dependencies'] ?? {}),
    ...Object.keys(py['tool.poetry.group.dev.dependencies'] ?? {}),
    ...(fs.read('requirements.txt') ?? '').split(/\r?\n/),
  ].map((d) => d.trim());
  for (const [re, label] of PY_FRAMEWORKS) if (deps.some((d) => re.test(d))) f.stack.push(label);
  const pm = pythonManager(fs, py);
  if (pm) f.managers.push(pm);
  const usesPytest =
    deps.some((d) => /^pytest\b/i.test(d)) ||
    py['tool.pytest.ini_options'] !== undefined ||
    fs.exists('pytest.ini');
  if (usesPytest || fs.exists('tests')) f.test.push(pyRun(pm, 'pytest'));
  if (py['tool.ruff'] || fs.exists('ruff.toml') || deps.some((d) => /^ruff\b/i.test(d)))
    f.lint.push(pyRun(pm, 'ruff check .'));
  if (py['tool.mypy'] || deps.some((d) => /^mypy\b/i.test(d))) f.lint.push(pyRun(pm, 'mypy .'));
  if (pyText && py['build-system'])
    f.build.push(pm === 'uv' ? 'uv build' : pm === 'poetry' ? 'poetry build' : 'python -m build');
  f.entries.push(...Object.values(py['project.scripts'] ?? {}).map((v) => tomlString(v) ?? ''));
  f.entries.push(...Object.values(py['tool.poetry.scripts'] ?? {}).map((v) => tomlString(v) ?? ''));
}
