/**
 * MAP_PMTILES as a local file: the archive is served whole at one stable URL, and the browser's
 * `pmtiles` reader asks it for byte ranges (header, directories, then each tile). Ranges,
 * conditional requests and HEAD are answered by @fastify/send, the engine of @fastify/static
 * (no hand-written Range parsing). With an archive URL instead, the browser reads that URL and
 * this path is a 404, as it is without MAP_PMTILES.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, apiErrorSchema } from '@moodmap/core';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { errorBody } from '../../errors.ts';
import { clientError } from '../../http/client-errors.ts';
import { readArchiveHeader } from './pmtiles-archive.ts';

/** Where the web app finds a local archive (given to it by GET /api/config). */
export const BASEMAP_ARCHIVE_PATH = '/api/geo/basemap.pmtiles';

/**
 * A day in any cache. An archive replaced in place gets another ETag, and the pmtiles reader
 * compares the ETags of its ranges: a mix of old and new bytes makes it reload, never misdraw.
 */
const ARCHIVE_CACHE = 'public, max-age=86400';

/** The URL the web app's pmtiles reader opens, or null: root-relative for a local archive. */
export function basemapArchiveUrl(config: Config): string | null {
  if (!config.mapPmtiles) return null;
  return config.mapPmtiles.kind === 'file' ? BASEMAP_ARCHIVE_PATH : config.mapPmtiles.url;
}

/** The archive's bytes are a stream, sent as is (never serialised); every refusal is in the API's error shape. */
const archiveBytes = z.custom<Readable>((value) => value instanceof Readable, { error: 'a byte stream' });
const archiveAnswer = { 200: archiveBytes, 206: archiveBytes, 304: archiveBytes, '4xx': apiErrorSchema };

function notFound(reply: FastifyReply) {
  return reply.status(404).header('cache-control', 'no-cache').send(errorBody('not_found', MESSAGES.not_found));
}

/**
 * send makes weak ETags and honours If-Range with them. The pmtiles reader ignores weak ETags
 * (it cannot tell two versions of the archive apart with one), and RFC 9110 lets If-Range
 * match only a strong one: the answer carries the strong form, a strong If-Range is turned
 * back into send's form, and a weak one into a tag that matches nothing (the whole archive).
 */
function adaptIfRange(request: FastifyRequest): void {
  const ifRange = request.headers['if-range'];
  if (typeof ifRange !== 'string') return;
  if (ifRange.startsWith('"')) request.raw.headers['if-range'] = `W/${ifRange}`;
  else if (ifRange.startsWith('W/')) request.raw.headers['if-range'] = '""';
}

export default async function pmtilesRoutes(app: FastifyInstance, { config }: { config: Config }): Promise<void> {
  const archive = config.mapPmtiles?.kind === 'file' ? config.mapPmtiles.path : null;
  if (archive) {
    // Throws the ConfigError that stops the server when the archive is missing or not one.
    const header = await readArchiveHeader(archive);
    app.log.info(
      { archive, minZoom: header.minZoom, maxZoom: header.maxZoom, tiles: header.numAddressedTiles },
      `fond de carte PMTiles servi sur ${BASEMAP_ARCHIVE_PATH} / PMTiles basemap served`,
    );
  } else if (config.mapPmtiles?.kind === 'url') {
    app.log.info(
      { url: config.mapPmtiles.url },
      'fond de carte PMTiles lu par le navigateur / PMTiles basemap read by the browser',
    );
  }

  // Compressing would break byte ranges, and tiles inside the archive are compressed already.
  app.get(BASEMAP_ARCHIVE_PATH, { compress: false, schema: { response: archiveAnswer } }, async (request, reply) => {
    if (!archive) return notFound(reply);
    adaptIfRange(request);
    const result = await send(request.raw, `/${encodeURIComponent(path.basename(archive))}`, {
      root: path.dirname(archive),
      dotfiles: 'allow',
      index: false,
      acceptRanges: true,
      cacheControl: false,
    });
    if (result.type === 'error') {
      const status = result.statusCode;
      // Deleted or moved since startup.
      if (status === 404) return notFound(reply);
      if (status >= 500) throw result.metadata.error;
      const refused = clientError(status);
      // A range past the end: its Content-Range tells the size (`bytes */<size>`), as the reader expects.
      const contentRange = result.headers['Content-Range'];
      if (contentRange) reply.header('content-range', contentRange);
      return reply
        .status(refused.status)
        .header('cache-control', 'no-cache')
        .send(errorBody(refused.code, MESSAGES[refused.code]));
    }
    reply.status(result.statusCode).headers(result.headers);
    if (result.headers.ETag) reply.header('etag', result.headers.ETag.replace(/^W\//, ''));
    if (result.statusCode !== 304) reply.header('content-type', 'application/vnd.pmtiles');
    return reply.header('cache-control', ARCHIVE_CACHE).header('x-content-type-options', 'nosniff').send(result.stream);
  });
}
