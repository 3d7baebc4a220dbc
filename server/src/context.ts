/** What every module receives: configuration and the engines behind one variable each. */
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';

export interface AppContext {
  config: Config;
  database: Database;
}
