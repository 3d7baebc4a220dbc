/** Notices of illegal content by anyone (DSA Art. 16): the form, the mails, the API's refusals. */
export const DSA_MESSAGES = {
  dsa_link: 'Signaler un contenu illicite',
  dsa_title: 'Signaler un contenu illicite',
  dsa_intro:
    'Toute personne peut nous notifier un contenu qu’elle estime illicite. Nous examinons chaque notification et vous informons de notre décision et de ses motifs.',
  dsa_explanation_label: 'Pourquoi ce contenu est-il illicite ?',
  dsa_explanation_placeholder: 'Expliquez précisément en quoi ce contenu est illicite (loi ou droit concerné)...',
  dsa_location_label: 'Emplacement exact du contenu (adresse ou identifiant de la publication)',
  dsa_name_label: 'Votre nom',
  dsa_email_label: 'Votre adresse email',
  dsa_good_faith_label:
    'Je déclare de bonne foi que les informations et allégations de cette notification sont exactes et complètes.',
  dsa_submit: 'Envoyer la notification',
  dsa_sent_confirm:
    'Notification reçue. Pour qu’elle soit examinée, confirmez-la en ouvrant le lien que nous venons de vous envoyer par email.',
  dsa_sent_member:
    'Notification reçue. Elle sera examinée par notre équipe de modération ; un accusé de réception vous a été envoyé par email.',
  dsa_confirm_title: 'Confirmer votre notification',
  dsa_confirmed:
    'Votre notification est confirmée. Elle sera examinée par notre équipe de modération ; un accusé de réception vous a été envoyé par email.',
  dsa_badge: 'Notification DSA (contenu illicite)',
  dsa_notifier: 'Notifié par {name}',
  dsa_explanation_required: 'Veuillez expliquer pourquoi ce contenu est illicite',
  dsa_explanation_too_long: 'L’explication ne doit pas dépasser 2000 caractères',
  dsa_location_invalid: 'Indiquez l’adresse ou l’identifiant exact de la publication',
  dsa_name_required: 'Veuillez indiquer votre nom',
  dsa_name_too_long: 'Le nom ne doit pas dépasser 100 caractères',
  dsa_good_faith_required: 'Veuillez confirmer que votre notification est faite de bonne foi',
  dsa_confirm_invalid: 'Ce lien de confirmation n’est pas valide ou a expiré',
  dsa_rate_limited: 'Trop de notifications envoyées. Veuillez réessayer dans {minutes} minutes.',
  mail_dsa_confirm_subject: 'MoodMap : confirmez votre notification de contenu illicite',
  mail_dsa_confirm_intro:
    'Vous avez notifié un contenu que vous estimez illicite. Pour que votre notification soit examinée, confirmez-la en ouvrant ce lien :',
  mail_dsa_confirm_action: 'Confirmer ma notification',
  mail_dsa_confirm_expiry: 'Ce lien est valable 24 heures. Sans confirmation, la notification n’est pas examinée.',
  mail_dsa_receipt_subject: 'MoodMap : accusé de réception de votre notification',
  mail_dsa_receipt_text:
    'Nous avons bien reçu votre notification concernant la publication {post}. Notre équipe de modération l’examinera et vous informera de sa décision et de ses motifs.',
  mail_dsa_decision_subject: 'MoodMap : décision sur votre notification de contenu illicite',
  mail_dsa_decision_removed: 'Après examen, la publication {post} a été retirée.',
  mail_dsa_decision_kept:
    'Après examen, nous n’avons pas retenu le caractère illicite de la publication {post} : elle reste en ligne.',
  mail_dsa_decision_reason: 'Motif de la décision : {reason}',
  mail_dsa_decision_note: 'Précisions du modérateur : {note}',
  mail_dsa_decision_redress:
    'Si vous contestez cette décision, vous pouvez saisir la juridiction compétente ou un organe de règlement extrajudiciaire des litiges.',
} as const;
