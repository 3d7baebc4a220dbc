/** The archive's README.txt: what each file holds, in French. */
import type { ArchiveFile } from './export-tables.ts';

const FILES: Record<ArchiveFile, string> = {
  'profil.json':
    'votre compte (adresse e-mail, date d’inscription, confirmation), votre profil (pseudo, bio, photo, nom, date de naissance, téléphone, statut, crédits Pulse) et votre rôle.',
  'consentements.json':
    'la version des conditions d’utilisation que vous avez acceptée et la date de cette acceptation.',
  'publications.json':
    'vos publications encore présentes (elles disparaissent 24 heures après leur création), avec leur position publiée et, le cas échéant, votre position exacte.',
  'commentaires.json': 'les commentaires que vous avez écrits.',
  'likes.json': 'les publications que vous avez aimées.',
  'messages.json':
    'vos conversations : l’autre membre (identifiant et pseudo, ou « Compte supprimé » sans identifiant s’il a supprimé son compte) et tous les messages, les vôtres comme les siens (« fromMe » indique les vôtres).',
  'signalements.json': 'les signalements que vous avez faits, avec la publication telle que vous l’avez signalée.',
  'notifications-contenus-illicites.json':
    'les notifications de contenu illicite que vous avez envoyées (nom, adresse e-mail, explication, publication visée).',
  'achats.json': 'vos achats de crédits Pulse et leurs reçus : quantité, montant, statut, dates, remboursements.',
  'moderation.json': 'les décisions de modération vous concernant et vos recours.',
  'avis.json': 'les avis reçus dans l’application (issue d’un signalement, exposé des motifs, issue d’un recours).',
  'appareils-notifications.json': 'les appareils qui reçoivent vos notifications.',
  'blocages.json': 'les identifiants des membres que vous avez bloqués.',
  'sessions.json': 'vos connexions (sessions) : leur début et leur fin.',
  'journal-securite.json': 'les événements de sécurité liés à votre compte (connexions refusées, limites atteintes…).',
};

export function readmeText(generatedAt: Date): string {
  return [
    'MoodMap — vos données',
    '',
    `Archive préparée le ${generatedAt.toISOString()} (heure UTC). Les fichiers JSON sont en UTF-8 et les dates en UTC (ISO 8601).`,
    '',
    ...Object.entries(FILES).map(([name, what]) => `${name} : ${what}`),
    'media/ : vos fichiers (photo de profil, images et messages vocaux de vos publications, images que vous avez envoyées).',
    '',
    'Les autres membres n’y figurent que par leur identifiant et leur pseudo.',
    '',
  ].join('\r\n');
}
