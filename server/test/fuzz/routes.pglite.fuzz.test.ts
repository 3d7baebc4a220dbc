import { fuzzEveryRoute } from './routes-fuzz.ts';

fuzzEveryRoute('pglite');
