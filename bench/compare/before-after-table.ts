/**
 * The before/after table of bench/compare/before-after.sh's runs: for each figure the feed and
 * messages benches print, the median and spread (min–max) of the rounds on each side, and
 * after ÷ before of the medians. Usage: npx node bench/compare/before-after-table.ts <dir> <out.md>
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSpread, sig, spread } from '../support/stats.ts';

const [dir, out] = process.argv.slice(2);
const runs = readdirSync(dir).filter((f) => f.endsWith('.json'));
type Figures = Map<string, number>;
const figuresOf = (file: string): Figures => {
  const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const f: Figures = new Map();
  if (file.startsWith('feed')) {
    for (const r of json.results as Array<Record<string, string | number>>) {
      const name = `${r.engine} · ${String(r.case).replace(/ \(before.*\)/, '')}`;
      f.set(`feed ${name} · req/s`, Number(r['req/s']));
      f.set(`feed ${name} · p50 ms`, Number(r['p50 ms']));
      if (!String(r.case).startsWith('bare')) f.set(`feed ${name} · ÷ hello`, Number(r['ratio to hello-world']));
    }
  } else {
    for (const r of json.results as Array<{
      case: string;
      paced: { p50: number; p99: number };
      saturated: { deliveriesPerSecond: number } | null;
    }>) {
      f.set(`messages ${r.case} · p50 ms`, r.paced.p50);
      f.set(`messages ${r.case} · p99 ms`, r.paced.p99);
      if (r.saturated) f.set(`messages ${r.case} · max deliveries/s`, r.saturated.deliveriesPerSecond);
    }
  }
  return f;
};
const loadOf = (file: string) => {
  const path = join(dir, file.replace('.json', '.load'));
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('exit'))
        .map((l) => l.split(' ').slice(0, 4).join(' '))
        .join(' → ')
    : '';
};

const lines: string[] = [];
for (const bench of ['feed', 'messages']) {
  const sides = {
    before: runs.filter((f) => f.startsWith(`${bench}-before-`)).sort(),
    after: runs.filter((f) => f.startsWith(`${bench}-after-`)).sort(),
  };
  if (!sides.before.length || !sides.after.length) continue;
  const before = sides.before.map(figuresOf);
  const after = sides.after.map(figuresOf);
  lines.push(
    `## ${bench} (${sides.before.length} rounds before, ${sides.after.length} after)`,
    '',
    '| figure | before: median (min–max) | after: median (min–max) | after ÷ before |',
    '|---|---|---|---|',
  );
  for (const key of before[0].keys()) {
    const b = spread(before.map((f) => f.get(key) ?? Number.NaN));
    const a = spread(after.map((f) => f.get(key) ?? Number.NaN));
    lines.push(`| ${key} | ${formatSpread(b)} | ${formatSpread(a)} | ${sig(a.median / b.median)} |`);
  }
  lines.push('', 'Load (/proc/loadavg 1/5/15 min, before → after each run):', '');
  for (const file of [...sides.before, ...sides.after].sort((x, y) =>
    x.split('-').pop()!.localeCompare(y.split('-').pop()!),
  ))
    lines.push(`- ${file.replace('.json', '')}: ${loadOf(file)}`);
  lines.push('');
}
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
