/** A bench's settings: each `BENCH_*` variable set in the environment overrides its default. */

/** The variable as a number, or the default when it is not set. */
export function envNumber(name: string, fallback: number): number {
  return Number(process.env[name] ?? fallback);
}

/** The variable as a positive whole number, or the default; any other value stops the run. */
export function envPositiveInt(name: string, fallback: number): number {
  const value = envNumber(name, fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}
