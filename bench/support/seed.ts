/**
 * Live posts seeded straight into the schema after the migrations, in SQL, with generate_series:
 * 10^6 posts take seconds to a minute on PostgreSQL instead of the hours the API would. Positions
 * follow world.ts (70 % gaussian around weighted cities, 30 % uniform over land-ish boxes), ages
 * 1 min–23 h (nothing expires during a run), 35 % with an image, 5 % with the pulse, authors
 * drawn from min(N, 20 000) users with profiles (60 % with a photo). Random, not replayable: the
 * figures are distributions over many views, not of one post.
 * Works on PGlite and PostgreSQL alike (plain SQL through the app's Drizzle instance).
 * If the schema gains NOT NULL columns without defaults (e.g. author fields stored with the
 * post), add them to the insert below.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/src/db/client.ts';
import { BOXES, CITIES } from './world.ts';

const CHUNK = 100_000;
const MOODS = ['happy', 'angry', 'party', 'money', 'love'];

export async function seedLivePosts(db: Db, count: number): Promise<void> {
  const users = Math.min(count, 20_000);
  const cityTotal = CITIES.reduce((s, c) => s + c[3], 0);
  const boxTotal = BOXES.reduce((s, b) => s + b[4], 0);
  let acc = 0;
  const cities = CITIES.map(([, lat, lon, w]) => [lat, lon, (acc += w / cityTotal)]);
  acc = 0;
  const boxes = BOXES.map(([s, w, n, e, weight]) => [s, w, n, e, (acc += weight / boxTotal)]);
  const setup = [
    `drop table if exists bench_cities, bench_boxes`,
    `create table bench_cities as select * from (values ${cities.map((c) => `(${c.join(',')})`).join(',')}) v(lat, lon, cum)`,
    `create index on bench_cities (cum)`,
    `create table bench_boxes as select * from (values ${boxes.map((b) => `(${b.join(',')})`).join(',')}) v(s, w, n, e, cum)`,
    `insert into users (id, email, password_hash, email_confirmed_at)
        select md5('bench-user-' || i)::uuid, 'seed.' || i || '@bench.invalid', 'not-a-hash', now() from generate_series(1, ${users}) i
        on conflict do nothing`,
    `insert into profiles (id, username, profile_photo_url, is_premium)
        select md5('bench-user-' || i)::uuid, 'membre_' || i,
               case when i % 5 < 3 then '/media/avatars/' || md5('bench-user-' || i) || '.webp' end, i % 20 = 0
        from generate_series(1, ${users}) i
        on conflict do nothing`,
  ];
  // One statement per call: PGlite's query (extended protocol) takes no multi-statement text.
  for (const statement of setup) await db.execute(sql.raw(statement));
  for (let from = 1; from <= count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK - 1);
    await db.execute(
      sql.raw(`
      insert into publications (user_id, category, content, latitude, longitude, nickname, created_at,
                                image_url, thumbnail_url, media_urls, has_pulse_effect)
      select md5('bench-user-' || u)::uuid, (array['${MOODS.join("','")}'])[1 + floor(r4 * 5)::int],
             'Quelle belle journée au soleil. Un café en terrasse, rien de mieux',
             greatest(-89.9, least(89.9, lat)), lon - 360 * floor((lon + 180) / 360),
             'membre_' || u, now() - (60 + r5 * 82800) * interval '1 second',
             case when img then '/media/posts/' || md5('p' || i) || '.webp' end,
             case when img then '/media/posts/' || md5('p' || i) || '-thumb.webp' end,
             case when img then jsonb_build_array('/media/posts/' || md5('p' || i) || '.webp') else '[]'::jsonb end,
             r6 < 0.05
      from (
        select g.i, g.u, g.r4, g.r5, g.r6, g.r6 > 0.65 as img,
               case when g.r0 < 0.7 then c.lat + g.gauss * cos(g.angle) * g.sigma else b.s + g.r2 * (b.n - b.s) end as lat,
               case when g.r0 < 0.7 then c.lon + g.gauss * sin(g.angle) * g.sigma / cos(radians(c.lat)) else b.w + g.r3 * (b.e - b.w) end as lon
        from (
          select i, 1 + (i % ${users}) as u, random() r0, random() r1, random() r2, random() r3, random() r4, random() r5, random() r6,
                 sqrt(-2 * ln(1 - random())) as gauss, 2 * pi() * random() as angle, 0.04 + random() * 0.12 as sigma
          from generate_series(${from}, ${to}) i
        ) g
        cross join lateral (select lat, lon from bench_cities where cum >= g.r1 order by cum limit 1) c
        cross join lateral (select s, w, n, e from bench_boxes where cum >= g.r1 order by cum limit 1) b
      ) p`),
    );
  }
  await db.execute(sql.raw('drop table bench_cities, bench_boxes'));
  await db.execute(sql.raw('analyze users'));
  await db.execute(sql.raw('analyze profiles'));
  await db.execute(sql.raw('analyze publications'));
}
