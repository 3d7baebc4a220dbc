/**
 * The token of the mailed appeal link (appeal-link.ts): the decision's id and an HMAC of it under
 * a key of its own (auth/tokens.ts), so only the server could have written it and it names one
 * decision. Kept apart from the link's reader, which words the notice: the notices mail it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { notFound } from '../../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sign = (key: Buffer, decisionId: string) =>
  createHmac('sha256', key).update(`appeal:${decisionId}`).digest('base64url');

export function appealLinkToken(key: Buffer, decisionId: string): string {
  return `${decisionId}.${sign(key, decisionId)}`;
}

/** The decision a token names, or 404 'Ce lien de recours n'est pas valide'. */
export function decisionOfToken(key: Buffer, token: string): string {
  // Exactly `<id>.<mac>`: a token with more parts is not one the server wrote.
  const parts = token.split('.');
  const [decisionId = '', mac = ''] = parts.length === 2 ? parts : [];
  const expected = Buffer.from(sign(key, decisionId));
  const given = Buffer.from(mac);
  if (!UUID.test(decisionId) || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw notFound('appeal_link_invalid');
  return decisionId;
}
