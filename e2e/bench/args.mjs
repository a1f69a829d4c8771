// Command-line options of the benchmarks: `--name value` pairs over defaults that name every option
// (a number default makes the value a number).
export function parseArgs(argv, defaults) {
  const parsed = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in defaults)) throw new Error(`unknown option --${key}; options: ${Object.keys(defaults).join(', ')}`);
    parsed[key] = typeof defaults[key] === 'number' ? Number(argv[i + 1]) : argv[i + 1];
  }
  return parsed;
}
