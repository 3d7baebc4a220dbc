/**
 * Sends e-mail: through SMTP (nodemailer) when SMTP_URL is set, otherwise into the dev outbox
 * with the message's links printed in the server log.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { createOutbox, extractLinks, type MailMessage, type Outbox } from './outbox.ts';

export interface Mailer {
  send(mail: MailMessage): Promise<void>;
  /** The dev outbox when mails are not really sent; null with SMTP. */
  readonly outbox: Outbox | null;
  close(): Promise<void>;
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  log: FastifyBaseLogger,
  now: () => Date,
): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      outbox: null,
      async send(mail) {
        await transport.sendMail({
          from: config.mailFrom,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      },
      async close() {
        transport.close();
      },
    };
  }
  const outbox = createOutbox(config.dataDir);
  return {
    outbox,
    async send(mail) {
      await outbox.add(mail, now());
      log.info(
        { to: mail.to, subject: mail.subject, links: extractLinks(mail.text) },
        "e-mail gardé dans la boîte d'envoi de développement (/dev/mail)",
      );
    },
    async close() {},
  };
}

export type { MailMessage, Outbox, StoredMail } from './outbox.ts';
