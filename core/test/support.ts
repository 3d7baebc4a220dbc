/** What the core schema tests share: the message a form shows, and a valid sign-up. */
import type { z } from 'zod';
import { TERMS_VERSIONS } from '../src/index.ts';

/** The message a form shows: the first issue's (undefined when the value is valid). */
export function firstMessage(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0].message;
}

export const validSignUp = {
  email: 'lea.martin@example.fr',
  password: 'Soleil2024',
  firstName: 'Léa',
  lastName: 'Martin',
  challengeToken: 'tok',
  challengeAnswer: '12',
  termsVersion: TERMS_VERSIONS.at(-1)!.version,
};
