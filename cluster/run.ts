/**
 * The cluster tier (`npm test -- cluster`, as root): real hosts in network namespaces — a
 * load balancer, three MoodMap instances in production mode, PostgreSQL, Redis, an S3 store and
 * a mail peer — and the workload (workload.ts) run from a client host through the balancer
 * only. The workload asks this runner to kill an instance (SIGKILL) and to pull another's cable
 * for 10 s; the runner then reads the instances' logs for who led the periodic jobs when.
 * Everything it made is removed on exit, failure, SIGINT or SIGTERM.
 * CLUSTER_SPLIT_SECRETS=1 gives each instance its own JWT_SECRET: the deployment mistake the
 * production configuration exists to prevent, which the workload sees as 401s.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { faultRequestSchema, goal, printReport, workloadResultSchema, type WorkloadResult } from './control.ts';
import { Hosts, makeSecrets, root, S3RVER, startApp, startBalancer, startDatabase, startMail, startRedis, startS3 } from './hosts.ts';
import { leadingIntervals, overlapMs } from './leader-log.ts';
import { APP_HOSTS, createTopology, deleteTopology, namespaceOf, namespacePids, ownNamespaces, setLink } from './topology.ts';

const PEOPLE = Number(process.env.CLUSTER_PEOPLE ?? 200);
const splitSecrets = process.env.CLUSTER_SPLIT_SECRETS === '1';

function requirements(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('le niveau « cluster » crée des espaces réseau : lancez-le en root');
  for (const tool of ['ip', 'haproxy', 'redis-server', 'runuser']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      missing.push(`${tool} introuvable (apt-get install -y ${tool === 'ip' ? 'iproute2' : tool === 'redis-server' ? 'redis-server' : tool})`);
    }
  }
  if (!existsSync(S3RVER)) missing.push(`s3rver introuvable (${S3RVER}) : npm install --prefix /tmp/s3peer s3rver, ou CLUSTER_S3RVER=<chemin de bin/s3rver.js>`);
  return missing;
}

/** Processes left in this tool's namespaces (all started by it), then the namespaces themselves. */
function sweepNamespaces(): void {
  for (const ns of ownNamespaces()) {
    for (const pid of namespacePids(ns)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  }
  deleteTopology();
}

let hosts: Hosts | null = null;
let workload: ChildProcess | null = null;
let cleaning: Promise<void> | null = null;

function cleanup(keepLogs: boolean): Promise<void> {
  cleaning ??= (async () => {
    if (workload && workload.exitCode === null) workload.kill('SIGKILL');
    if (hosts) {
      await hosts.stopAll();
      if (keepLogs) console.error(`journaux des hôtes gardés dans ${path.join(hosts.run, 'logs')}`);
    }
    sweepNamespaces();
    if (hosts) {
      for (const dir of ['pg', 'redis', 's3', ...APP_HOSTS]) rmSync(path.join(hosts.run, dir), { recursive: true, force: true });
      if (!keepLogs) rmSync(hosts.run, { recursive: true, force: true });
    }
    const left = ownNamespaces();
    if (left.length > 0) console.error(`espaces réseau restants : ${left.join(', ')}`);
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal} : arrêt de la grappe`);
    void cleanup(true).then(() => process.exit(130));
  });
}

async function startCluster(run: string): Promise<Hosts> {
  const started = new Hosts(run);
  hosts = started;
  createTopology(PEOPLE);
  await Promise.all([startDatabase(started), startRedis(started), startS3(started), startMail(started)]);
  const shared = makeSecrets();
  const secretsOf = (i: number) => (splitSecrets ? { ...shared, jwt: makeSecrets().jwt } : shared);
  // The first instance migrates the fresh database; the others start on a migrated one.
  await startApp(started, 'app1', secretsOf(0));
  await Promise.all([startApp(started, 'app2', secretsOf(1)), startApp(started, 'app3', secretsOf(2))]);
  await startBalancer(started);
  return started;
}

/** Runs the workload in the client host; answers its fault requests; resolves with its result. */
function runWorkload(cluster: Hosts): Promise<WorkloadResult> {
  const child = spawn('ip', ['netns', 'exec', namespaceOf('client'), process.execPath, path.join(root, 'cluster/workload.ts')], {
    cwd: root,
    env: { ...process.env, CLUSTER_PEOPLE: String(PEOPLE), CLUSTER_RUN: cluster.run },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  workload = child;
  let result: WorkloadResult | null = null;
  child.on('message', (message: unknown) => {
    const request = faultRequestSchema.safeParse(message);
    if (request.success) {
      const { id, fault, host } = request.data;
      const done = (at: number) => child.send({ type: 'fault-done', id, at });
      if (fault === 'kill') void cluster.kill(host).then(done);
      else {
        setLink(host, fault === 'restore');
        done(Date.now());
      }
      console.log(`[grappe] ${fault === 'kill' ? 'kill -9' : fault === 'cut' ? 'câble coupé' : 'câble rebranché'} : ${host}`);
      return;
    }
    const parsed = workloadResultSchema.safeParse(message);
    if (parsed.success) result = parsed.data;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`la charge s'est arrêtée (${code}) sans résultat`))));
  });
}

async function main(): Promise<number> {
  const missing = requirements();
  if (missing.length > 0) {
    for (const line of missing) console.error(line);
    return 2;
  }
  if (ownNamespaces().length > 0) {
    console.error(`espaces réseau d'une exécution précédente (${ownNamespaces().join(', ')}) : supprimés`);
    sweepNamespaces();
  }
  const startedAt = Date.now();
  const run = mkdtempSync('/tmp/mmc-run-');
  const cluster = await startCluster(run);
  console.log(`[grappe] prête en ${((Date.now() - startedAt) / 1000).toFixed(1)} s${splitSecrets ? ' (un JWT_SECRET par instance)' : ''}`);
  const result = await runWorkload(cluster);
  const endAt = Date.now();
  const intervals = APP_HOSTS.flatMap((host) => {
    const end = result.killed?.host === host ? result.killed.at : endAt;
    return leadingIntervals(host, cluster.logOf(host), end);
  });
  const overlap = overlapMs(intervals);
  const goals = [...result.goals, goal('instances menant les tâches périodiques en même temps (journaux)', `${overlap} ms à deux ou plus`, '0 ms', overlap === 0)];
  const figures = [...result.figures, `passages de meneur (journaux) : ${intervals.map((i) => `${i.host} ${new Date(i.from).toISOString().slice(11, 19)}–${new Date(i.to).toISOString().slice(11, 19)}`).join(', ')}`, `durée totale : ${((Date.now() - startedAt) / 1000).toFixed(0)} s`];
  printReport(goals, figures);
  return goals.every((g) => g.ok) ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  // Once a signal is cleaning up, the workload's end is that cleaning's doing, not news.
  if (!cleaning) console.error(error instanceof Error ? error.message : error);
  code = 1;
} finally {
  await cleanup(code !== 0);
}
process.exit(code);
