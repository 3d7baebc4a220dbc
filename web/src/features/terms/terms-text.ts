/**
 * The terms of use: 14 sections holding the text of every version in core's TERMS_VERSIONS.
 * A paragraph is in every version, or tagged with the version that added it (`since`) or the one
 * that replaced it (`until`): a member accepts the text of the version in force, and reads the
 * next one, marked where it changes, during its notice. A new version tags its changes here and
 * adds its entry in core, TERMS_NOTICE_DAYS before it applies.
 */
interface TaggedParagraph {
  text: string;
  since?: string;
  until?: string;
}
export type TermsParagraph = string | TaggedParagraph;

export interface TermsSection {
  title: string;
  paragraphs: TermsParagraph[];
}

/** One version's section: its paragraphs, each flagged when that version added it. */
export interface VersionSection {
  title: string;
  paragraphs: { text: string; isNew: boolean }[];
}

export const TERMS_SECTIONS: TermsSection[] = [
  {
    title: 'Objet',
    paragraphs: [
      "Les présentes Conditions Générales d'Utilisation (CGU) encadrent l'utilisation de MoodMap, un réseau social cartographique où chacun peut épingler sur une carte du monde une publication courte associée à une humeur.",
      'En créant un compte, vous acceptez ces CGU dans leur version en vigueur. Les visiteurs non inscrits peuvent consulter la carte et les profils publics dans le respect de ces mêmes règles.',
    ],
  },
  {
    title: 'Compte',
    paragraphs: [
      "L'inscription demande une adresse e-mail valide, un prénom, un nom et un mot de passe d'au moins 8 caractères. Le compte est activé après confirmation de l'adresse e-mail.",
      "Vous êtes responsable de la confidentialité de votre mot de passe et de toute activité réalisée depuis votre compte. Un seul compte par personne ; l'usurpation d'identité est interdite.",
    ],
  },
  {
    title: 'Publications et durée de vie de 24 h',
    paragraphs: [
      'Une publication comprend un texte de 500 caractères au plus, une humeur, une position sur la terre ferme et, au choix, une image et un message vocal de 60 secondes au plus.',
      "Chaque publication est visible 24 heures puis supprimée automatiquement, avec ses médias. Vous ne pouvez avoir qu'une publication active à la fois ; vous pouvez la supprimer à tout moment.",
    ],
  },
  {
    title: 'Données de localisation',
    paragraphs: [
      "La position d'une publication est celle que vous choisissez sur la carte ; elle est publique pendant la vie de la publication. Nous vous conseillons de ne pas indiquer votre domicile exact.",
      "La géolocalisation de votre appareil n'est utilisée qu'à votre demande (bouton « me localiser ») et n'est jamais enregistrée par nos serveurs.",
    ],
  },
  {
    title: 'Médias',
    paragraphs: [
      'Les images (10 Mo au plus) et messages vocaux (5 Mo au plus) sont analysés et réencodés ; leurs métadonnées, dont les coordonnées GPS, sont supprimées.',
      'Vous garantissez détenir les droits sur les médias publiés et nous accordez une licence non exclusive, gratuite et limitée à leur affichage dans le service pendant leur durée de vie.',
    ],
  },
  {
    title: 'Messagerie',
    paragraphs: [
      "Les membres peuvent échanger des messages privés. Le harcèlement, les sollicitations commerciales non désirées et l'envoi de contenus illicites sont interdits.",
      "Les messages ne sont lus que par leurs deux participants, sauf signalement ou réquisition d'une autorité compétente.",
      {
        since: '2026-12-28',
        text: "Les messages d'une personne avec qui vous n'avez pas encore de conversation arrivent dans « Demandes », sans badge ni notification. Elle ne sait pas que vous les avez lus tant que vous n'avez pas accepté sa demande ; vous pouvez l'accepter (y répondre l'accepte aussi), la supprimer pour vous seul, ou bloquer et signaler son auteur.",
      },
      {
        since: '2026-12-28',
        text: "Si votre correspondant supprime son compte, les messages qu'il vous a envoyés restent dans votre conversation, signés « Compte supprimé », sans ses images ; vous ne pouvez plus lui répondre.",
      },
    ],
  },
  {
    title: 'Crédits Pulse',
    paragraphs: [
      "Les crédits Pulse s'achètent au prix de 2,50 € l'unité par carte bancaire auprès de notre prestataire de paiement. Un crédit donne à une publication un effet animé pendant toute sa durée de vie.",
      'Les crédits ne sont ni remboursables, ni limités dans le temps, ni transférables à un autre compte, sauf disposition légale impérative.',
    ],
  },
  {
    title: 'Modération et recours',
    paragraphs: [
      {
        until: '2026-12-28',
        text: 'Tout membre peut signaler une publication. Notre équipe de modération peut retirer un contenu ou suspendre un compte qui enfreint ces CGU ou la loi.',
      },
      {
        since: '2026-12-28',
        text: "Tout membre peut signaler une publication. Toute personne, inscrite ou non, peut aussi nous notifier un contenu qu'elle estime illicite avec « Signaler un contenu illicite » : la notification est examinée une fois son adresse e-mail confirmée, et son auteur reçoit un accusé de réception puis notre décision motivée. Notre équipe de modération peut retirer un contenu ou suspendre un compte qui enfreint ces CGU ou la loi.",
      },
      'Vous pouvez contester une décision de modération depuis le formulaire de contact ; chaque recours est examiné par une personne différente de celle qui a pris la décision.',
    ],
  },
  {
    title: 'Données personnelles et droits',
    paragraphs: [
      'Nous traitons vos données (compte, profil, publications, messages, achats) pour fournir le service, sur le fondement du contrat, et pour sa sécurité, sur le fondement de notre intérêt légitime.',
      "Conformément au RGPD, vous disposez de droits d'accès, de rectification, d'effacement, de limitation, d'opposition et de portabilité, exercés depuis le formulaire de contact. Vous pouvez saisir la CNIL.",
      {
        since: '2026-12-28',
        text: "« Télécharger mes données », dans votre profil, prépare une archive de vos données (compte, profil, publications, commentaires, « j'aime », conversations, signalements, achats, décisions de modération, sessions) avec vos médias. Vous êtes prévenu par e-mail quand elle est prête ; elle se télécharge depuis votre profil pendant 7 jours. Une demande par 24 heures au plus.",
      },
      {
        since: '2026-12-28',
        text: '« Supprimer mon compte », dans votre profil, efface immédiatement votre compte, votre profil, vos publications et leurs médias, vos commentaires, vos « j’aime » et les images que vous avez envoyées en message. Vos paiements sont conservés 10 ans sans votre identité (obligation comptable) ; les décisions de modération et le journal de sécurité sont conservés sous un pseudonyme.',
      },
      {
        since: '2026-12-28',
        text: "Le texte des messages que vous avez envoyés reste dans les conversations de leurs destinataires : il fait partie de leur correspondance, qu'ils ont reçue et dont nous gardons leur copie, sur le fondement de leur intérêt légitime à conserver leurs propres conversations. Il y apparaît envoyé par « Compte supprimé », sans votre nom, votre photo, votre identifiant ni lien vers votre profil, et la conversation ne peut plus recevoir de réponse. Les images que vous avez envoyées sont en revanche supprimées de nos serveurs : plus que le texte, elles peuvent vous montrer ou montrer vos proches. Une conversation que son destinataire n'a jamais vue (vide, ou demande qu'il avait supprimée), ou dont l'autre participant a déjà supprimé son compte, est supprimée entièrement.",
      },
    ],
  },
  {
    title: 'Cookies et stockage local',
    paragraphs: [
      "Nous n'utilisons aucun cookie publicitaire. Un cookie strictement nécessaire garde votre session ; le stockage local de votre navigateur retient le thème et la dernière position de la carte.",
      'Nos statistiques de fréquentation sont anonymes : ni adresse IP, ni identifiant, ni cookie. Elles ne sont pas collectées si votre navigateur envoie « Do Not Track » ou « Global Privacy Control ».',
    ],
  },
  {
    title: 'Responsabilité',
    paragraphs: [
      "Chaque membre est responsable des contenus qu'il publie. MoodMap agit en qualité d'hébergeur et retire promptement tout contenu manifestement illicite qui lui est signalé.",
      "Le service est fourni en l'état ; il peut être limité temporairement pour préserver sa qualité (mode de protection) ou pour maintenance.",
    ],
  },
  {
    title: 'Modification des CGU',
    paragraphs: [
      "Toute nouvelle version des CGU vous est annoncée dans l'application 30 jours avant son entrée en vigueur.",
      "À cette date, il vous est demandé de l'accepter pour continuer à utiliser le service ; à défaut, vous pouvez supprimer votre compte.",
    ],
  },
  {
    title: 'Droit applicable',
    paragraphs: [
      'Les présentes CGU sont régies par le droit français. À défaut de solution amiable, tout litige relève des tribunaux compétents selon les règles de droit commun.',
      'Si vous êtes consommateur, vous pouvez recourir gratuitement à un médiateur de la consommation.',
    ],
  },
  {
    title: 'Contact',
    paragraphs: [
      "Pour toute question sur ces CGU, vos données ou une décision de modération, écrivez-nous depuis l'onglet Contact de l'aide.",
    ],
  },
];

/**
 * The text of one version. Versions are named by their date (YYYY-MM-DD), so they compare as
 * strings: a paragraph belongs to `version` from its `since` and before its `until`.
 */
export function termsSections(version: string): VersionSection[] {
  return TERMS_SECTIONS.map((section) => ({
    title: section.title,
    paragraphs: section.paragraphs
      .map((p): TaggedParagraph => (typeof p === 'string' ? { text: p } : p))
      .filter((p) => (p.since === undefined || p.since <= version) && (p.until === undefined || version < p.until))
      .map((p) => ({ text: p.text, isNew: p.since === version })),
  }));
}
