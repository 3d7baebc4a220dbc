/**
 * `npm run bench`: runs every benchmark in this folder, one after the other. Each prints its
 * own table and writes bench/results/<name>.json.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const benches = readdirSync(here)
  .filter((d) => statSync(path.join(here, d)).isDirectory() && d !== 'results' && d !== 'node_modules')
  .flatMap((d) =>
    readdirSync(path.join(here, d))
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => path.join(d, f)),
  )
  .filter((f) => !only || f.includes(only));

let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${bench}`);
  const result = spawnSync(process.execPath, [path.join(here, bench)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
// The goals' table from whatever results the benches wrote.
console.log('\n=== summary');
spawnSync(process.execPath, [path.join(here, 'summary.ts')], { stdio: 'inherit' });
process.exit(failed ? 1 : 0);
