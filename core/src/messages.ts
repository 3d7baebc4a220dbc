/**
 * The French text catalogue. Every text a user reads is the spec's, verbatim, and lives here
 * once: the server answers `{ error: { code, message: MESSAGES[code] } }`, the web app shows
 * the same entries. Keys are stable error codes or UI text ids.
 */
export const MESSAGES = {
  // Generic
  internal_error: 'Une erreur est survenue. Veuillez réessayer.',
  not_found: 'Ressource introuvable',
  bad_request: 'Requête invalide',
  not_authenticated: 'User not authenticated',
  forbidden: 'Accès refusé : permissions insuffisantes',
  payload_too_large: 'Fichier trop volumineux',
  database_error: 'Erreur de base de données. Veuillez réessayer dans quelques instants.',
  emergency_mode: 'Service temporairement limité pour maintenir la qualité. Réessayez dans quelques minutes.',

  // Shell and navigation
  app_name: 'MoodMap',
  nav_profile: 'Profil',
  nav_sign_in: 'Se connecter',
  nav_map: 'Carte',
  nav_messages: 'Messages',
  nav_create: 'Publier',
  close: 'Fermer',
  search_placeholder: 'Rechercher une publication...',
  search_no_result: 'Aucune publication trouvée pour "{query}"',
  mood_filter: 'Humeurs',
  help: 'Aide',
  theme_toggle: 'Changer de thème',
  refresh_posts: 'Actualiser les publications',
  locate_me: 'Me localiser',
  loading: 'Chargement...',

  // Signed-out texts of protected screens (spec §2, §6)
  profile_signed_out: 'Veuillez vous connecter pour voir votre profil',
  messages_signed_out: 'Veuillez vous connecter pour voir vos messages',
  create_signed_out: 'Veuillez vous connecter pour créer une publication',
  contact_signed_out: 'Veuillez vous connecter pour contacter cet utilisateur',
  pulse_signed_out: "Veuillez vous connecter pour acheter l'effet pulse",
  admin_auth_required_title: 'Authentification requise',
  admin_auth_required: 'Veuillez vous connecter pour accéder à cette page.',
  admin_denied_title: 'Accès refusé',
  admin_denied: "Vous n'avez pas les permissions pour accéder à cette page.",
  admin_current_role: 'Rôle actuel: {role}',
  admin_title: "Panel d'Administration",
  admin_refresh: 'Actualiser',
  admin_users_tab: 'Utilisateurs ({count})',
  admin_logs_tab: 'Logs de sécurité ({count})',
  admin_role_error: 'Erreur lors de la vérification des permissions',
  admin_load_error: 'Erreur lors du chargement des données: {message}',
  admin_email_hidden: 'Confidentiel',

  // Geolocation (spec §8, each shown 8 s)
  geo_unsupported: "La géolocalisation n'est pas supportée par votre navigateur",
  geo_denied: 'Accès à la localisation refusé...',
  geo_unavailable: 'Position non disponible...',
  geo_timeout: "Délai d'attente dépassé pour obtenir la position.",
  geo_other: 'Erreur de géolocalisation...',

  // Auth: validation (spec §5)
  auth_fields_required: 'Veuillez remplir tous les champs',
  email_invalid: 'Veuillez entrer une adresse email valide',
  password_too_short: 'Le mot de passe doit contenir au moins 8 caractères',
  password_too_long: 'Le mot de passe ne peut pas dépasser 128 caractères',
  password_weak_rule: 'Le mot de passe doit contenir au moins une majuscule, une minuscule et un chiffre',
  password_mismatch: 'Les mots de passe ne correspondent pas',
  first_name_length: 'Le prénom doit contenir entre 2 et 50 caractères',
  last_name_length: 'Le nom doit contenir entre 2 et 18 caractères',
  human_check_required: 'Veuillez compléter la vérification anti-robot',
  forgot_email_required: 'Veuillez entrer votre adresse email',
  email_critical: "Format d'email invalide détecté",
  password_critical: 'Format de mot de passe invalide détecté',
  first_name_critical: 'Format de prénom invalide',
  last_name_critical: 'Format de nom invalide',
  human_check_too_fast: 'Réponse trop rapide, prenez votre temps ({n}/2)',
  bot_detected: 'Activité suspecte détectée. Veuillez réessayer.',

  // Auth: errors by cause (spec §8)
  email_taken: 'Cette adresse email est déjà utilisée',
  password_problem: 'Problème avec le mot de passe',
  invalid_credentials: 'Email ou mot de passe incorrect',
  email_not_confirmed: 'Veuillez vérifier votre email et cliquer sur le lien de confirmation',
  email_validation_failed: 'Adresse email invalide ou problème de validation',
  auth_rate_limited: 'Trop de tentatives - Veuillez patienter',
  auth_other: 'Erreur de connexion.',
  reset_rate_limited: 'Trop de demandes. Veuillez patienter avant de réessayer.',
  reset_request_failed: 'Une erreur est survenue. Veuillez réessayer.',
  session_expired: 'Session expirée. Veuillez vous reconnecter.',

  // Reset-password screen (spec §2, §5, §8)
  reset_title: 'Nouveau mot de passe',
  reset_new_password: 'Nouveau mot de passe',
  reset_confirm_password: 'Confirmer le mot de passe',
  reset_submit: 'Changer le mot de passe',
  reset_busy: 'Modification en cours...',
  reset_home_link: "Retour à l'accueil",
  reset_success: 'Mot de passe modifié !',
  reset_continue: 'Continuer',
  reset_link_invalid: 'Lien de réinitialisation invalide ou expiré. Veuillez demander un nouveau lien.',
  reset_session_expired: 'Session de récupération expirée. Veuillez demander un nouveau lien.',
  reset_weak_password: 'Mot de passe trop faible. Veuillez choisir un mot de passe plus fort.',
  reset_failed: "Une erreur est survenue lors de la réinitialisation",
  reset_tokens_missing: 'Tokens de réinitialisation manquants',
  reset_session_invalid: 'Session de récupération invalide ou expirée',
  show_password: 'Afficher le mot de passe',
  hide_password: 'Masquer le mot de passe',

  // Rate limits (spec §8, §5)
  rate_blocked: 'Action bloquée pour {action}. Réessayez dans {minutes} minutes.',
  rate_too_many: 'Trop de tentatives pour {action}. Bloqué pour {minutes} minutes.',
  post_rate_limited: 'Trop de publications. Veuillez patienter.',
  upload_rate_limited: "Trop d'uploads. Veuillez patienter.",

  // Posts (spec §5 "Publication", §8)
  feed_load_error: 'Erreur de chargement',
  category_invalid: 'Catégorie invalide',
  location_required: 'Veuillez sélectionner une position sur la carte',
  content_forbidden: 'Contenu non autorisé détecté',
  content_required: 'Veuillez ajouter du contenu, une image ou un message vocal',
  content_too_long: 'Le contenu ne doit pas dépasser 500 caractères',
  post_active_exists: "Vous avez déjà une publication active. Supprimez-la avant d'en créer une nouvelle.",
  invalid_coordinates: 'Coordonnées de localisation invalides',
  not_on_land: 'Publications autorisées uniquement sur terre (îles comprises)',
  open_sea: 'Cette position est en pleine mer...',
  audio_duration_zero: "La durée de l'enregistrement audio doit être supérieure à zéro. Veuillez réenregistrer.",
  post_create_failed: 'Échec de la création de la publication. Veuillez réessayer.',
  post_delete_check_failed: 'Erreur lors de la vérification de suppression',
  post_delete_impossible: 'Impossible de supprimer la publication',
  post_delete_failed: 'Erreur lors de la suppression. Veuillez réessayer.',
  comment_not_found: 'Commentaire non trouvé',
  create_duration: 'Durée : 24h',
  create_limit: 'Limite : 1 à la fois',

  // Uploads (spec §5, §8)
  image_type_invalid: 'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.',
  image_too_large_5mb: "La taille de l'image ne doit pas dépasser 5MB",
  upload_failed: "Erreur lors de l'upload des fichiers",
  upload_validation_failed: 'Erreur de validation pour {file}',
  upload_too_many_files: 'Vous ne pouvez sélectionner que {n} fichiers maximum',
  audio_too_large: 'Fichier audio trop volumineux (max 5MB)',
  audio_too_small: 'Fichier audio trop petit ou corrompu',

  // Audio recording and player (spec §8)
  mic_permission_required: 'Permission microphone requise pour enregistrer un message vocal',
  audio_record_error: "Erreur lors de l'enregistrement audio",
  audio_config_missing: 'Configuration audio manquante',
  audio_upload_error_prefix: 'Erreur upload audio',
  audio_url_invalid: 'URL audio invalide',
  audio_bucket_missing: 'Fichier audio non trouvé (bucket non configuré)',
  audio_playback_error: 'Erreur de lecture audio',
  audio_blocked: 'Lecture audio bloquée par le navigateur',
  audio_unsupported: 'Format audio non supporté',
  audio_inaccessible: 'Fichier audio inaccessible',
  audio_corrupt: 'Fichier audio introuvable ou corrompu',
  audio_slow: 'Chargement audio trop lent',
  audio_unavailable: 'Fichier audio non disponible',

  // Contact and report (spec §8, §3)
  conversation_create_failed: 'Erreur lors de la création de la conversation',
  conversation_impossible: 'Impossible de créer la conversation',
  report_success: 'Publication signalée avec succès. Merci de nous aider à maintenir une communauté saine.',
  report_failed: 'Erreur lors du signalement',
  report_reason_required: 'Veuillez sélectionner un motif',
  mail_client_error: "Erreur lors de l'ouverture du client email",
  contact_fields_required: 'Veuillez remplir tous les champs obligatoires',
  contact_sent: 'Email envoyé !',

  // Profile (spec §2, §5, §8)
  profile_title: 'Profil utilisateur',
  profile_not_found: 'Profil introuvable',
  profile_no_posts: 'Aucune publication pour le moment',
  profile_member_since: 'Membre depuis',
  profile_send_message: 'Envoyer un message',
  profile_about: 'À propos',
  profile_back: 'Retour',
  profile_create_post: 'Créer une publication',
  profile_sign_out: 'Déconnexion',
  profile_admin: 'Admin',
  profile_photo_permission: 'Erreur de permissions...',
  profile_photo_failed: 'Erreur lors du téléchargement de la photo',
  profile_photo_success: 'Photo de profil mise à jour avec succès !',
  nickname_success: 'Pseudo modifié avec succès !',
  nickname_failed: 'Une erreur est survenue lors de la modification du pseudo',
  nickname_blocked: 'Vous avez déjà modifié votre pseudo ce mois-ci.',
  nickname_length: 'Le pseudo doit contenir entre 2 et 50 caractères',
  bio_success: 'Bio mise à jour avec succès !',
  bio_failed: 'Une erreur est survenue lors de la modification de la bio',
  bio_too_long: 'La bio ne peut pas dépasser 500 caractères',
  expires_in_hours: 'Expire dans {hours}h',
  expires_in_minutes: 'quelques minutes',
  see_on_map: 'Voir sur carte',

  // Pulse (spec §8)
  pulse_session_missing: 'Session non trouvée. Veuillez vous reconnecter.',
  pulse_checkout_failed: 'Erreur lors de la création de la session de paiement',
  pulse_redirect_missing: 'URL de redirection manquante',

  // Messages (spec §2)
  messages_empty: 'Aucun message',
  messages_empty_hint: "Commencez une conversation en cliquant sur 'Contacter' sur une publication",
  messages_select: 'Sélectionnez une conversation pour commencer à discuter',
  messages_start_with: 'Commencez votre conversation avec {nickname}',
  messages_first_placeholder: 'Écrivez votre premier message...',
  messages_placeholder: 'Écrivez votre message...',
  messages_you_prefix: 'Vous: ',
  messages_photo_preview: '📷 Photo',
  message_toast_title: 'Nouveau message',
  message_toast_now: "À l'instant",
  message_toast_reply: 'Cliquez pour répondre',
  message_toast_fallback_name: 'Utilisateur',

  // Map (spec §2)
  cluster_popup_title: 'Annonces dans cette zone',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Fills `{name}` placeholders of a catalogue text. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return MESSAGES[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
