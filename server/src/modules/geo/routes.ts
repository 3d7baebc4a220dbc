/**
 * Geo endpoints: the offline basemap's vector tiles (and its land and border layers as world
 * GeoJSON, kept for other clients), the land check the create screen asks before letting a
 * user publish, and the place search of the top bar and the location picker.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  apiErrorSchema,
  featureCollectionSchema,
  geoTileParamsSchema,
  landQuerySchema,
  landResponseSchema,
  placeSearchQuerySchema,
  placeSearchResponseSchema,
} from '@moodmap/core';
import { z } from 'zod';
import { readWorldGeoJson, WORLD_GEOJSON_FILES, type WorldGeoJson } from './world-geojson.ts';
import type { GeoEngine } from './geo-engine.ts';
import { type EncodedTile, getTile, prepareTiles } from './tiles.ts';
import { acceptsGzip } from '../../http/compression.ts';
import { errorBody, validationError } from '../../errors.ts';

const ONE_DAY_CACHE = 'public, max-age=86400';
/**
 * Tiles are static for a given build of the data: a week in any cache, and a day more served
 * stale while revalidating with the ETag (a data update shows within a week).
 */
const TILE_CACHE = 'public, max-age=604800, stale-while-revalidate=86400';
/** Place answers change only with the data: an hour in any cache (a CDN answers repeated prefixes). */
const PLACES_CACHE = 'public, max-age=3600';

/** If-None-Match uses the weak comparison: W/ prefixes are ignored, `*` matches anything. */
function matchesEtag(header: string | undefined, asset: Pick<WorldGeoJson, 'etag' | 'gzipEtag'>): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || tag === asset.etag || tag === asset.gzipEtag;
  });
}

function sendStaticJson(request: FastifyRequest, reply: FastifyReply, asset: WorldGeoJson) {
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  reply.header('cache-control', ONE_DAY_CACHE).header('vary', 'accept-encoding');
  reply.header('etag', gzip ? asset.gzipEtag : asset.etag);
  if (matchesEtag(request.headers['if-none-match'], asset)) return reply.code(304).send();
  reply.type('application/geo+json');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? asset.gzip : asset.identity);
}

/** A tile as gzip or identity bytes; an empty tile (open sea) is 204, which MapLibre draws as nothing. */
function sendTile(request: FastifyRequest, reply: FastifyReply, tile: EncodedTile | null) {
  reply.header('cache-control', TILE_CACHE);
  if (!tile) return reply.code(204).send();
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding').header('etag', gzip ? tile.gzipEtag : tile.etag);
  if (matchesEtag(request.headers['if-none-match'], tile)) return reply.code(304).send();
  reply.type('application/vnd.mapbox-vector-tile');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? tile.gzip : tile.identity());
}

// Module level: one copy per process, however many app instances (tests build many).
let worldGeoJson: { land: WorldGeoJson; borders: WorldGeoJson } | undefined;
function world() {
  worldGeoJson ??= {
    land: readWorldGeoJson(WORLD_GEOJSON_FILES.land),
    borders: readWorldGeoJson(WORLD_GEOJSON_FILES.borders),
  };
  return worldGeoJson;
}

/**
 * Opens the basemap's prebuilt files (the tile archive, the world GeoJSON) before the server
 * listens, so a missing or foreign file stops the start instead of the first request. The land
 * check and the place search are not here: the context opens them (geo-engine.ts).
 */
export function prepareGeoAssets(): void {
  world();
  prepareTiles();
}

/** Prepared bytes, so the schema documents the answer; 304 when the ETag matches. */
const geoJsonAnswer = { response: { 200: featureCollectionSchema } };
/** Binary tiles: 200 is protobuf bytes (no JSON schema), 204 an empty tile, 304 not modified. */
const tileAnswer = {
  params: geoTileParamsSchema,
  response: { 200: z.instanceof(Buffer), 204: z.null(), 304: z.null(), 400: apiErrorSchema },
};

export default async function geoRoutes(root: FastifyInstance, { geo }: { geo: GeoEngine }): Promise<void> {
  // Also served by a bare Fastify (tests, tools): the plugin brings its schemas' compilers.
  root.setValidatorCompiler(validatorCompiler);
  root.setSerializerCompiler(serializerCompiler);
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get('/api/map/land.geojson', { schema: geoJsonAnswer }, async (request, reply) =>
    sendStaticJson(request, reply, world().land),
  );
  app.get('/api/map/borders.geojson', { schema: geoJsonAnswer }, async (request, reply) =>
    sendStaticJson(request, reply, world().borders),
  );

  app.get('/api/geo/tiles/:z/:x/:y.pbf', { attachValidation: true, schema: tileAnswer }, async (request, reply) => {
    if (request.validationError) return reply.code(400).send(errorBody('invalid_tile', MESSAGES.invalid_tile));
    const { z: zoom, x, y } = request.params;
    return sendTile(request, reply, await getTile(zoom, x, y));
  });

  // Public and answered from memory in microseconds, so not counted against the post search's
  // rate limit (a keystroke would cost a limiter write worth more than the answer).
  app.get(
    '/api/geo/places',
    {
      attachValidation: true,
      schema: {
        querystring: placeSearchQuerySchema,
        response: { 200: placeSearchResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (request.validationError) {
        const refused = validationError(request.validationError.validation?.[0]?.message);
        return reply.code(400).send(errorBody(refused.code, refused.message));
      }
      reply.header('cache-control', PLACES_CACHE);
      return { places: geo.places.search(request.query.q, request.query.limit) };
    },
  );

  // Every refusal of the query is 400 invalid_coordinates, answered here so that the plugin
  // keeps the API's error shape under any error handler.
  app.get(
    '/api/geo/land',
    {
      attachValidation: true,
      schema: { querystring: landQuerySchema, response: { 200: landResponseSchema, 400: apiErrorSchema } },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(400).send(errorBody('invalid_coordinates', MESSAGES.invalid_coordinates));
      }
      // The answer for a point never changes (static polygons), so clients may keep it.
      reply.header('cache-control', ONE_DAY_CACHE);
      return { onLand: geo.land.isOnLand(request.query.lat, request.query.lon) };
    },
  );
}
