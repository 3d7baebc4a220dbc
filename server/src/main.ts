/**
 * Starts MoodMap: config from the environment, migrations, then listen. SIGTERM/SIGINT stop
 * accepting connections, let in-flight requests finish, then close the database.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { prepareGeoAssets } from './modules/geo/routes.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // A basemap archive that is missing or not one (MAP_PMTILES) is found while the app is built.
  const app = await buildApp(config).catch((error: unknown) => {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  });
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
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // Static map data and the land index are built now, not by the first requests that need them.
  prepareGeoAssets();
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`MoodMap prêt sur ${config.publicUrl} (base ${app.ctx.database.engine})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
