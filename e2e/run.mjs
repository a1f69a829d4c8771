// `npm test`: every file of tests/, one at a time. The files that ask for a shared configuration
// (`sharedApp('plain', ...)` in lib/app.mjs) run together against one app of that configuration,
// started here before them and stopped after them; the other files start their own apps. With file
// names as arguments, only those run. Exits 1 when a file failed. A shared app that does not start
// leaves its files to start their own, as they do when run alone.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, SHARED_APP_ENV, SHARED_CONFIGURATIONS, describeShared } from './lib/app.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TESTS = join(HERE, 'tests');
const USES_SHARED = /\bsharedApp\(\s*'([\w-]+)'/;

const files = process.argv.length > 2
  ? process.argv.slice(2).map((file) => relative(HERE, resolve(file)))
  : readdirSync(TESTS).filter((name) => name.endsWith('.test.mjs')).sort().map((name) => join('tests', name));
const byConfiguration = new Map(Object.keys(SHARED_CONFIGURATIONS).map((configuration) => [configuration, []]));
const own = [];
for (const file of files) {
  const configuration = readFileSync(join(HERE, file), 'utf8').match(USES_SHARED)?.[1];
  if (configuration === undefined) own.push(file);
  else if (byConfiguration.has(configuration)) byConfiguration.get(configuration).push(file);
  else throw new Error(`${file} asks for the shared configuration ${configuration}, which lib/app.mjs does not have`);
}

/** `node --test` on `group`, as `npm test` ran them all before: one file at a time. */
function nodeTest(group, env = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...group],
      { cwd: HERE, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.once('exit', (code, signal) => resolveRun(code === 0 && signal === null));
  });
}

let running = null; // the shared app up now, stopped if this process is interrupted
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await running?.stop();
    process.exit(1);
  });
}

let passed = true;
const timings = [];
for (const [configuration, group] of byConfiguration) {
  if (group.length === 0) continue;
  const began = Date.now();
  const app = new App({ name: `shared-${configuration}`, env: SHARED_CONFIGURATIONS[configuration] });
  running = app;
  let started = true;
  try {
    await app.start();
  } catch (error) {
    // As if run alone: each file starts its own app (and fails if that does not start either).
    console.error(`the shared app ${configuration} did not start (${error.message}): its files start their own`);
    started = false;
  }
  try {
    passed = await nodeTest(group, started ? { [SHARED_APP_ENV]: describeShared(configuration, app) } : {}) && passed;
  } finally {
    await app.stop();
    running = null;
  }
  timings.push(`${configuration} (${group.length} files on one app): ${Math.round((Date.now() - began) / 1000)} s`);
}
if (own.length > 0) {
  const began = Date.now();
  passed = await nodeTest(own) && passed;
  timings.push(`files with apps of their own (${own.length}): ${Math.round((Date.now() - began) / 1000)} s`);
}
console.log(timings.join('\n'));
process.exit(passed ? 0 : 1);
