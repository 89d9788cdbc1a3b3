// Runs the Rust fixture writer (src/main.rs). Without arguments it rewrites the committed
// fixtures in packages/core/src/model/__fixtures__; with --check it writes them into a temporary
// folder and fails, listing every difference, when the committed files are stale.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const committed = fileURLToPath(
  new URL('../../../packages/core/src/model/__fixtures__', import.meta.url),
);
// The folders and files the writer owns; the rest of __fixtures__ (the captured Rust
// deployment data) is not generated and not compared.
const GENERATED = ['events', 'work-items', 'error-details', 'read-rules', 'README.md'];

const check = process.argv.includes('--check');

const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
if (cargo.status !== 0) {
  const message = '@duro/wire-fixtures: cargo is not installed, so the fixtures cannot be written';
  // A machine without Rust can still run the TypeScript checks; CI must not skip this one.
  if (check && !process.env.CI) {
    console.log(`${message}; skipping the check.`);
    process.exit(0);
  }
  console.error(`${message}.`);
  process.exit(1);
}

const output = check ? mkdtempSync(join(tmpdir(), 'duro-wire-fixtures-')) : committed;
try {
  const run = spawnSync(
    'cargo',
    ['run', '--quiet', '--release', '--locked', '-p', 'wire-fixtures', '--', output],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        CARGO_TARGET_DIR:
          process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'duro-native-target'),
      },
    },
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
  if (check) {
    const problems = compare(output, committed);
    if (problems.length > 0) {
      console.error('@duro/wire-fixtures: the committed fixtures are stale:');
      for (const problem of problems) console.error(`  ${problem}`);
      console.error('Run `pnpm --filter @duro/wire-fixtures generate` and commit the result.');
      process.exit(1);
    }
    console.log(`@duro/wire-fixtures: ${countFiles(output)} fixture files are up to date.`);
  }
} finally {
  if (check) rmSync(output, { recursive: true, force: true });
}

/** Every file that is missing, extra or different in `actual` compared with `expected`. */
function compare(expected, actual) {
  const expectedFiles = listFiles(expected);
  const actualFiles = listFiles(actual);
  const problems = [];
  for (const file of expectedFiles) {
    if (!actualFiles.has(file)) problems.push(`missing: ${file}`);
    else if (!readFileSync(join(expected, file)).equals(readFileSync(join(actual, file)))) {
      problems.push(`differs: ${file}`);
    }
  }
  for (const file of actualFiles) {
    if (!expectedFiles.has(file)) problems.push(`not written by the generator: ${file}`);
  }
  return problems.sort();
}

function listFiles(root) {
  const files = new Set();
  const visit = (path) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else {
      files.add(relative(root, path));
    }
  };
  for (const entry of GENERATED) {
    const path = join(root, entry);
    try {
      visit(path);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return files;
}

function countFiles(root) {
  return listFiles(root).size;
}
