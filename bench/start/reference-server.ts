/**
 * The start bench's reference: a process that loads every module the server's entry loads (the
 * relative imports of server/src/main.ts, read from its text, so the list follows main.ts), then
 * serves the built index.html from a bare Fastify on PORT — everything the real start does
 * except preparing (database, migrations, engines, geographic data).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

const serverSrc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/src');
const mainText = readFileSync(path.join(serverSrc, 'main.ts'), 'utf8');
/** Value imports only: `import type` lines load nothing at run time. */
const imported = [...mainText.matchAll(/^import (?!type )[^;]*? from '(\.[^']+)';$/gms)].map((m) => m[1]);
for (const specifier of imported) await import(path.join(serverSrc, specifier));

const page = readFileSync(process.env.BENCH_PAGE ?? '', 'utf8');
const app = Fastify();
app.get('/', async (_request, reply) => reply.type('text/html').send(page));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
