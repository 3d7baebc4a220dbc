/**
 * The dev outbox pages, outside production only: /dev/mail (HTML, newest first, clickable
 * links) for people, /dev/mail.json?to= for the browser journeys.
 *
 * They hold every reset link: like every route under /dev/, they answer only to the machine
 * itself (http/dev-only.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '@moodmap/core';
import type { Outbox, StoredMail } from './outbox.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function renderMail(mail: StoredMail): string {
  // The text with its links made clickable; the links are the ones we generated (http/https).
  const parts = mail.text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)));
  return `<article><h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">À : ${escapeHtml(mail.to)} — ${escapeHtml(new Date(mail.sentAt).toLocaleString('fr-FR', { timeZone: 'UTC' }))} UTC</p>
<pre>${parts.join('')}</pre></article>`;
}

const query = z.object({ to: z.string().max(254).optional() });

export default async function devMailRoutes(app: FastifyInstance, { outbox }: { outbox: Outbox }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/dev/mail.json', { schema: { querystring: query } }, async (request, reply) => {
      const mails = await outbox.list({ to: request.query.to });
      return reply.header('cache-control', 'no-store').send(mails);
    });

  app.get('/dev/mail', async (_request, reply) => {
    const mails = await outbox.list();
    const body = mails.length ? mails.map(renderMail).join('\n') : `<p>${escapeHtml(MESSAGES.dev_outbox_empty)}</p>`;
    const title = escapeHtml(MESSAGES.dev_outbox_title);
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(`<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}
article{border-bottom:1px solid #ddd;padding:1rem 0}.meta{color:#666}pre{white-space:pre-wrap}</style>
</head><body><h1>${title}</h1>${body}</body></html>`);
  });
}
