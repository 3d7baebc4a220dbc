/**
 * The dev outbox: without SMTP_URL, e-mails are kept here instead of sent — as JSON files under
 * DATA_DIR/outbox/ (in memory when there is no data directory) — and listed at /dev/mail, so a
 * newcomer can confirm an account locally.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface StoredMail extends MailMessage {
  links: string[];
  sentAt: string;
}

export interface Outbox {
  add(mail: MailMessage, sentAt: Date): Promise<StoredMail>;
  /** Newest first, optionally only those sent to `to` (case-insensitive). */
  list(options?: { to?: string; limit?: number }): Promise<StoredMail[]>;
}

/** Links of a message, in order, once each (from the plain text, which carries them all). */
export function extractLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"']+/g) ?? [])];
}

const MEMORY_MAX = 500;
const LIST_DEFAULT = 100;

export function createOutbox(dataDir: string | null): Outbox {
  return dataDir ? fileOutbox(path.join(dataDir, 'outbox')) : memoryOutbox();
}

function stored(mail: MailMessage, sentAt: Date): StoredMail {
  return {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    links: extractLinks(mail.text),
    sentAt: sentAt.toISOString(),
  };
}

const matches = (mail: StoredMail, to?: string) => !to || mail.to.toLowerCase() === to.toLowerCase();

function memoryOutbox(): Outbox {
  const mails: StoredMail[] = [];
  return {
    async add(mail, sentAt) {
      const entry = stored(mail, sentAt);
      mails.unshift(entry);
      mails.length = Math.min(mails.length, MEMORY_MAX);
      return entry;
    },
    async list({ to, limit = LIST_DEFAULT } = {}) {
      return mails.filter((m) => matches(m, to)).slice(0, limit);
    },
  };
}

function fileOutbox(dir: string): Outbox {
  let seq = 0;
  return {
    async add(mail, sentAt) {
      const entry = stored(mail, sentAt);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Names sort by time (fixed-width ms, then a per-process sequence) so listing needs no parse.
      const name = `${String(sentAt.getTime()).padStart(15, '0')}-${String(seq++).padStart(6, '0')}-${randomBytes(3).toString('hex')}.json`;
      await writeFile(path.join(dir, name), JSON.stringify(entry, null, 2), { mode: 0o600 });
      return entry;
    },
    async list({ to, limit = LIST_DEFAULT } = {}) {
      let names: string[];
      try {
        names = (await readdir(dir))
          .filter((n) => n.endsWith('.json'))
          .sort()
          .reverse();
      } catch {
        return [];
      }
      const result: StoredMail[] = [];
      for (const name of names) {
        if (result.length >= limit) break;
        try {
          const mail = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as StoredMail;
          if (matches(mail, to)) result.push(mail);
        } catch {
          // A file being written or hand-edited is skipped, not fatal.
        }
      }
      return result;
    },
  };
}
