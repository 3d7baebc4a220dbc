/**
 * The query key of a public profile, on its own: the shell's realtime (profile-realtime.ts)
 * needs only the key, not profile-api.ts's queries, mutations and their code.
 */
export const profileKey = (id: string) => ['profiles', id] as const;
