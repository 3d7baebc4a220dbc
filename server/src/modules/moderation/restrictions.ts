/**
 * How a suspension's end reads. What a suspension or a ban stops, route by route, is the write
 * policy's (write-policy.ts); the end is compared with the app's clock (ctx.now), so tests move
 * time past it.
 */
const FR_DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** '24 décembre 2026 à 15:00' (Paris time): how a suspension's end reads in French. */
export function frenchDateTime(date: Date): string {
  return FR_DATE.format(date);
}
