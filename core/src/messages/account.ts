/** Deleting one's account (right to erasure): the profile's dialog and the API's refusals. */
export const ACCOUNT_MESSAGES = {
  account_delete_button: 'Supprimer mon compte',
  account_delete_title: 'Supprimer mon compte',
  account_delete_intro: 'La suppression est immédiate et définitive.',
  account_delete_goes_title: 'Ce qui est supprimé',
  account_delete_goes:
    'Votre profil et votre photo, vos publications et leurs médias, vos commentaires et vos « j’aime », les images que vous avez envoyées en message, vos conversations pour vous, vos blocages, vos signalements, vos appareils de notification, vos achats en attente et toutes vos sessions.',
  account_delete_stays_title: 'Ce qui est conservé',
  account_delete_stays:
    'Le texte des messages que vous avez envoyés reste chez leurs destinataires, signé « Compte supprimé », sans votre nom, votre photo ni lien vers votre profil. Vos paiements sont conservés 10 ans sans votre identité (obligation comptable). Les décisions de modération et le journal de sécurité sont conservés sous un pseudonyme (obligations légales). Votre adresse email pourra servir à créer un nouveau compte.',
  account_delete_password_label: 'Mot de passe actuel',
  account_delete_confirm: 'Supprimer définitivement',
  account_delete_wrong_password: 'Mot de passe incorrect',
  account_deleted: 'Votre compte a été supprimé',
  account_delete_failed: 'La suppression du compte a échoué. Veuillez réessayer.',
  /** What a deleted member is called where something of theirs is kept (a received message, a record). */
  account_erased_name: 'Compte supprimé',
} as const;
