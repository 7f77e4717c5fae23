// Command-line options of the benchmark scripts: `--name value`, and the store a script measures.

const argv = process.argv.slice(2);

/** The value after `--name`, or `def` when the option is absent or has no value. */
export function opt(name, def) {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : def;
}

/** Whether the flag `--name` was given. */
export const flag = (name) => argv.includes(`--${name}`);

/** `--store DIR`, which these scripts need: a store kept by `bench-scale.mjs --keep`. */
export function requiredStore() {
  const store = opt('store', '');
  if (!store) {
    console.error('--store DIR (a store kept by bench-scale.mjs --keep) is required');
    process.exit(1);
  }
  return store;
}
