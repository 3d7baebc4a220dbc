import { engines } from '../helpers/databases.ts';
import { fuzzEveryRoute } from './routes-fuzz.ts';

// PostgreSQL when TEST_DATABASE_URL names one (CI does).
fuzzEveryRoute('postgres', engines.includes('postgres'));
