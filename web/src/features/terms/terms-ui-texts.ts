/** The French texts of the terms notice and of the modal's version bar, and their date format. */
export const TERMS_UI = {
  notice_label: "Conditions d'utilisation",
  notice_upcoming: "Nos conditions d'utilisation changent le {date}.",
  notice_view_upcoming: 'Voir les nouvelles conditions',
  notice_view_to_accept: 'Lire et accepter',
  notice_dismiss: "Masquer l'annonce des nouvelles conditions",
  in_force: 'Version en vigueur depuis le {date}.',
  next_announced: "Une nouvelle version s'appliquera le {date}.",
  upcoming:
    "Nouvelle version, applicable à partir du {date} ; d'ici là, la version en vigueur s'applique. Les passages ajoutés sont marqués «\u00a0Nouveau\u00a0».",
  show_upcoming: 'Voir la nouvelle version',
  show_current: 'Voir la version en vigueur',
  new_badge: 'Nouveau',
} as const;

/**
 * A version's day, as « 28 décembre 2026 ». Versions start at midnight UTC: read in UTC, the
 * day is the same everywhere.
 */
export function termsDate(effectiveAt: string): string {
  return new Date(effectiveAt).toLocaleDateString('fr-FR', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export const withDate = (text: string, effectiveAt: string): string => text.replace('{date}', termsDate(effectiveAt));
