/**
 * The CSP's connect-src: the realtime socket is same-origin, so 'self' covers
 * it (CSP 3 matches ws:/wss: of the page's own host with 'self'); bare `ws:`/`wss:` would let an
 * injected script open a socket to any host. External origins appear only when configured.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import type { FastifyInstance } from 'fastify';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function csp(overrides: Partial<Config> = {}): Promise<Record<string, string[]>> {
  app = await buildApp(testConfig(overrides));
  const res = await app.inject('/api/health');
  const header = String(res.headers['content-security-policy']);
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('Content-Security-Policy', () => {
  it("limits connect-src to 'self' by default: no ws:, wss: or other host", async () => {
    const directives = await csp();
    expect(directives['connect-src']).toEqual(["'self'"]);
    for (const values of Object.values(directives)) {
      expect(values).not.toContain('ws:');
      expect(values).not.toContain('wss:');
    }
  });

  it('names a configured basemap style and media bucket, still without bare ws:/wss:', async () => {
    const directives = await csp({
      mapStyleUrl: 'https://tiles.example.org/style.json',
      s3: {
        endpoint: 'https://s3.example.net',
        region: 'eu-west-3',
        bucket: 'moodmap',
        accessKeyId: 'k',
        secretAccessKey: 's',
        publicUrl: 'https://cdn.example.com/media',
      },
    });
    const connect = directives['connect-src'];
    expect(connect).toContain("'self'");
    expect(connect).toContain('https://tiles.example.org');
    expect(connect).toContain('https://cdn.example.com');
    expect(connect).not.toContain('ws:');
    expect(connect).not.toContain('wss:');
    expect(directives['img-src']).toContain('https://cdn.example.com');
  });

  it('with only a media bucket, allows that bucket and not every https host', async () => {
    const directives = await csp({
      s3: {
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        bucket: 'media',
        accessKeyId: 'k',
        secretAccessKey: 's',
        publicUrl: 'http://127.0.0.1:9000/media',
      },
    });
    expect(directives['img-src']).toContain('http://127.0.0.1:9000');
    expect(directives['img-src']).not.toContain('https:');
    expect(directives['connect-src']).toEqual(["'self'", 'http://127.0.0.1:9000']);
  });
});
