/**
 * Access tokens live 15 minutes and a full crowd run takes about as long: each case signs its
 * users' tokens again, from the claims of their previous ones (the same user and session), with
 * the server's own token module and the run's secret.
 */
import { loadServerSecret } from '../../server/src/modules/auth/secret.ts';
import { deriveKeys, signAccessToken } from '../../server/src/modules/auth/tokens.ts';
import type { BenchUser } from '../messages/clients.ts';

export async function freshTokens(users: BenchUser[], jwtSecret: string): Promise<BenchUser[]> {
  const keys = deriveKeys(await loadServerSecret({ jwtSecret, dataDir: null }));
  const now = new Date();
  return Promise.all(
    users.map(async (user) => {
      const payload = Buffer.from(user.token.split('.')[1] ?? '', 'base64url').toString();
      const claims = JSON.parse(payload) as { email: string; sid: string };
      const token = await signAccessToken(keys, { userId: user.id, email: claims.email, sessionId: claims.sid }, now);
      return { ...user, token };
    }),
  );
}
