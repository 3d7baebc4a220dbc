/**
 * The cluster tier (`npm test -- cluster`, as root): real hosts in network namespaces — a
 * load balancer, three MoodMap instances in production mode, PostgreSQL, Redis, an S3 store and
 * a mail peer — and the workload (workload.ts) run from a client host through the balancer
 * only. The workload asks this runner to kill an instance (SIGKILL) and to pull another's cable
 * for 10 s, and at the end to start the killed one again; the runner then reads the instances'
 * logs for who led the periodic jobs when. Everything it made is removed on exit, failure,
 * SIGINT or SIGTERM. CLUSTER_CONTROL runs a negative control (controls.ts), which must fail.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  type Fault,
  faultRequestSchema,
  goal,
  printReport,
  workloadResultSchema,
  type WorkloadResult,
} from './control.ts';
import { type Control, CONTROL_TEXT, controlledEnv, controlOf, SHADOW_LOCKS_SQL } from './controls.ts';
import {
  appEnv,
  DATABASE,
  Hosts,
  makeSecrets,
  psql,
  root,
  S3RVER,
  startApp,
  startBalancer,
  startDatabase,
  startMail,
  startRedis,
  startS3,
} from './hosts.ts';
import { leadingIntervals, overlapMs } from './leader-log.ts';
import {
  APP_HOSTS,
  type AppHost,
  createTopology,
  deleteTopology,
  namespaceOf,
  namespacePids,
  ownNamespaces,
  setLink,
} from './topology.ts';

const PEOPLE = Number(process.env.CLUSTER_PEOPLE ?? 200);

function requirements(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('le niveau « cluster » crée des espaces réseau : lancez-le en root');
  for (const tool of ['ip', 'haproxy', 'redis-server', 'runuser']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      missing.push(
        `${tool} introuvable (apt-get install -y ${tool === 'ip' ? 'iproute2' : tool === 'redis-server' ? 'redis-server' : tool})`,
      );
    }
  }
  if (!existsSync(S3RVER))
    missing.push(
      `s3rver introuvable (${S3RVER}) : npm install --prefix /tmp/s3peer s3rver, ou CLUSTER_S3RVER=<chemin de bin/s3rver.js>`,
    );
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
      for (const dir of ['pg', 'redis', 's3', ...APP_HOSTS])
        rmSync(path.join(hosts.run, dir), { recursive: true, force: true });
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

interface Cluster {
  hosts: Hosts;
  /** Each instance's environment, kept for its restart. */
  envOf: (host: AppHost) => NodeJS.ProcessEnv;
}

async function startCluster(run: string, control: Control | null): Promise<Cluster> {
  const started = new Hosts(run);
  hosts = started;
  createTopology(PEOPLE);
  await Promise.all([startDatabase(started), startRedis(started), startS3(started), startMail(started)]);
  if (control === 'sweepers') psql(started, DATABASE, SHADOW_LOCKS_SQL);
  const shared = makeSecrets();
  const envOf = (host: AppHost) => controlledEnv(appEnv(started, host, shared), host, control);
  // The first instance migrates the fresh database; the others start on a migrated one.
  await startApp(started, 'app1', envOf('app1'));
  await Promise.all([startApp(started, 'app2', envOf('app2')), startApp(started, 'app3', envOf('app3'))]);
  await startBalancer(started);
  return { hosts: started, envOf };
}

const FAULT_TEXT: Record<Fault, string> = {
  kill: 'kill -9',
  cut: 'câble coupé',
  restore: 'câble rebranché',
  restart: 'redémarrée',
};

/** Does what the workload asked; resolves with the moment it was done, null if it could not be. */
async function doFault(cluster: Cluster, fault: Fault, host: AppHost): Promise<number | null> {
  if (fault === 'kill') return cluster.hosts.kill(host);
  if (fault === 'restart') {
    return startApp(cluster.hosts, host, cluster.envOf(host)).then(
      () => Date.now(),
      (error: unknown) => {
        console.error(`[grappe] ${host} ne redémarre pas : ${error instanceof Error ? error.message : error}`);
        return null;
      },
    );
  }
  setLink(host, fault === 'restore');
  return Date.now();
}

/** Runs the workload in the client host; answers its fault requests; resolves with its result. */
function runWorkload(cluster: Cluster): Promise<WorkloadResult> {
  const child = spawn(
    'ip',
    ['netns', 'exec', namespaceOf('client'), process.execPath, path.join(root, 'cluster/workload.ts')],
    {
      cwd: root,
      env: { ...process.env, CLUSTER_PEOPLE: String(PEOPLE) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  workload = child;
  let result: WorkloadResult | null = null;
  child.on('message', (message: unknown) => {
    const request = faultRequestSchema.safeParse(message);
    if (request.success) {
      const { id, fault, host } = request.data;
      void doFault(cluster, fault, host).then((at) => {
        if (child.connected) child.send({ type: 'fault-done', id, at });
        console.log(`[grappe] ${FAULT_TEXT[fault]} : ${host}`);
      });
      return;
    }
    const parsed = workloadResultSchema.safeParse(message);
    if (parsed.success) result = parsed.data;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`la charge s'est arrêtée (${code}) sans résultat`)),
    );
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
  const control = controlOf(process.env.CLUSTER_CONTROL);
  const startedAt = Date.now();
  const run = mkdtempSync('/tmp/mmc-run-');
  const cluster = await startCluster(run, control);
  console.log(
    `[grappe] prête en ${((Date.now() - startedAt) / 1000).toFixed(1)} s${control ? ` (${CONTROL_TEXT[control]} : des objectifs doivent échouer)` : ''}`,
  );
  const result = await runWorkload(cluster);
  const endAt = Date.now();
  const intervals = APP_HOSTS.flatMap((host) => leadingIntervals(host, cluster.hosts.logOf(host), endAt));
  const overlap = overlapMs(intervals);
  const goals = [
    ...result.goals,
    goal(
      'instances menant les tâches périodiques en même temps (journaux)',
      `${overlap} ms à deux ou plus`,
      '0 ms',
      overlap === 0,
    ),
  ];
  const figures = [
    ...result.figures,
    `passages de meneur (journaux) : ${intervals.map((i) => `${i.host} ${new Date(i.from).toISOString().slice(11, 19)}–${new Date(i.to).toISOString().slice(11, 19)}`).join(', ')}`,
    `durée totale : ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
  ];
  printReport(goals, figures);
  const failed = goals.filter((g) => !g.ok).length;
  if (control)
    console.log(
      `${CONTROL_TEXT[control]} : ${failed} objectif(s) en échec${failed === 0 ? ', le contrôle ne montre rien' : ''}`,
    );
  return failed === 0 ? 0 : 1;
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
