/**
 * The account flows: sign-up with confirmation, sign-in, refresh, sign-out,
 * password reset and change, role. Routes parse and answer; every rule lives in the flows.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { emailLinkFlows } from './email-links.ts';
import { createFlowSupport } from './flow-support.ts';
import { passwordFlows } from './password-flows.ts';
import { signInFlows } from './sign-in.ts';
import { signUpFlows } from './signup.ts';

export function createAuthService(ctx: AppContext, log: FastifyBaseLogger) {
  const support = createFlowSupport(ctx, log);
  return {
    flush: support.flush,
    ...signUpFlows(support),
    ...emailLinkFlows(support),
    ...signInFlows(support),
    ...passwordFlows(support),
    violation: support.violation,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
