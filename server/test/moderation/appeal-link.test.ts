/** The mailed appeal link's token: exactly `<decision id>.<mac>`, nothing more, nothing less. */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { appealLinkToken, decisionOfToken } from '../../src/modules/moderation/appeal-token.ts';

const key = randomBytes(32);
const decisionId = randomUUID();
const token = appealLinkToken(key, decisionId);

function refusal(given: string): unknown {
  try {
    decisionOfToken(key, given);
  } catch (error) {
    return error;
  }
  return null;
}

describe('appeal link tokens', () => {
  it('names the decision of a token the server wrote', () => {
    expect(decisionOfToken(key, token)).toBe(decisionId);
  });

  it.each([
    ['an extra segment', `${token}.anything`],
    ['an empty extra segment', `${token}.`],
    ['the id alone', decisionId],
    ['another key’s mac', appealLinkToken(randomBytes(32), decisionId)],
  ])('refuses %s with the invalid-link 404', (_name, given) => {
    const error = refusal(given);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 404, code: 'appeal_link_invalid' });
  });
});
