/**
 * Starts MoodMap: configuration from the environment, the database and its migrations, the
 * app and its engines, the geographic data, then listen — each step logged in one line with its
 * time. SIGTERM/SIGINT stop accepting connections, let in-flight requests finish, then close
 * the database.
 */
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createLogger } from './http/log-redaction.ts';
import { prepareGeoAssets } from './modules/geo/routes.ts';
import { describeDatabase, describeEngines, localUrl, missingWebApp, readyLine } from './startup-report.ts';
import { elapsedMs, logStep, step } from './startup-steps.ts';

/** A configuration error is the operator's to fix: its message alone, and exit. */
function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
}

async function main() {
  // performance.now() counts from the process's start: the code's loading is part of the start.
  const loadedMs = Math.round(performance.now());
  const configStarted = performance.now();
  const config = readConfig();
  const log = createLogger(config.logLevel);
  log.info(
    { node: process.version },
    `Démarrage de MoodMap (Node ${process.version}, ${config.env}) : code chargé en ${loadedMs} ms`,
  );
  logStep(log, 'Configuration', elapsedMs(configStarted));

  const database = await step(
    log,
    'Base de données et migrations',
    () => openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
    () => describeDatabase(config),
  );
  // A basemap archive that is missing or not one (MAP_PMTILES) is found while the app is built.
  const app = await step(
    log,
    'Moteurs et routes',
    () => buildApp(config, { database }),
    (built) => describeEngines(built.ctx),
  ).catch(exitOnConfigError);
  const noWebApp = missingWebApp(config.webDist);
  if (noWebApp) log.warn(noWebApp);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'arrêt en cours');
    const timer = setTimeout(() => {
      app.log.error('arrêt forcé après 10 s');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // The basemap archive is opened and the world GeoJSON prepared now, not by the first requests.
  await step(log, 'Données géographiques', () => prepareGeoAssets());
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => `À l'écoute sur ${address}`,
  });
  const bound = app.server.address();
  if (bound === null || typeof bound === 'string') throw new Error(`adresse d'écoute inattendue : ${bound}`);
  // `url` also as a field: what a script waiting for the server reads from the JSON line.
  log.info({ url: localUrl(bound) }, readyLine(bound, config.publicUrl, performance.now()));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
