/**
 * The texts the map screen and the shell show (top bar, navigation, search, mood filter, map,
 * markers and the popup's skeleton, geolocation, the message toast, the session's notices, the
 * HTTP client's generic failures): part of the French catalogue (../messages.ts assembles it,
 * one source of truth). The web app's first load imports this part only; the
 * screens it loads later bring the whole catalogue with them.
 */
export const SHELL_MESSAGES = {
  // Generic
  internal_error: 'Une erreur est survenue. Veuillez réessayer.',
  not_found: 'Ressource introuvable',
  bad_request: 'Requête invalide',
  not_authenticated: 'User not authenticated',
  forbidden: 'Accès refusé : permissions insuffisantes',
  payload_too_large: 'Fichier trop volumineux',

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

  // Geolocation (each shown 8 s)
  geo_unsupported: "La géolocalisation n'est pas supportée par votre navigateur",
  geo_denied: 'Accès à la localisation refusé...',
  geo_unavailable: 'Position non disponible...',
  geo_timeout: "Délai d'attente dépassé pour obtenir la position.",
  geo_other: 'Erreur de géolocalisation...',

  // Auth: errors by cause
  auth_rate_limited: 'Trop de tentatives - Veuillez patienter',
  auth_other: 'Erreur de connexion.',
  session_expired: 'Session expirée. Veuillez vous reconnecter.',

  // Posts
  feed_load_error: 'Erreur de chargement',

  // Uploads
  upload_failed: "Erreur lors de l'upload des fichiers",

  // Contact and report
  conversation_create_failed: 'Erreur lors de la création de la conversation',

  // Profile
  expires_in_hours: 'Expire dans {hours}h',
  expires_in_minutes: 'quelques minutes',

  // Messages
  messages_photo_preview: '📷 Photo',
  message_toast_title: 'Nouveau message',
  message_toast_now: "À l'instant",
  message_toast_reply: 'Cliquez pour répondre',
  message_toast_fallback_name: 'Utilisateur',

  // Map
  cluster_popup_title: 'Annonces dans cette zone',

  // Web shell: navigation, search, filter, map
  nav_label: 'Navigation principale',
  unread_badge_label: '{count} conversations non lues',
  unread_badge_label_one: '{count} conversation non lue',
  search_clear: 'Effacer la recherche',
  mood_filter_all: 'Toutes les humeurs',
  mood_filter_last_hint: 'Au moins une humeur reste sélectionnée.',
  map_label: 'Carte des humeurs',
  my_position: 'Ma position',

  // Web: accounts
  auth_other_hint: 'Vérifiez votre connexion internet puis réessayez.',
  auth_email_confirmed: 'Adresse email confirmée : vous êtes connecté.',
  auth_confirm_link_invalid: 'Lien de confirmation invalide ou expiré.',

  // Posts: server texts
  post_not_found: 'Publication introuvable',

  // Likes, comments, reports, search and contact in the browser
  search_results_label: 'Résultats de la recherche',
  search_searching: 'Recherche en cours...',
  search_failed: 'La recherche a échoué. Veuillez réessayer.',

  // Posts on the map, web
  create_voice_label: 'Message vocal',
  pulse_badge: 'Pulse',
  cluster_count: '{count} publications',
  cluster_count_one: '{count} publication',

  // Place search: the top bar's places above its posts, and the create page's picker
  search_places_heading: 'Lieux',
  search_posts_heading: 'Publications',
  place_search_placeholder: 'Rechercher un lieu...',
  place_search_no_result: 'Aucun lieu trouvé pour "{query}"',

  // Accessible map and list view
  marker_name: 'Publication de {nickname}, {mood}, {time}',
  marker_group_name: '{count} publications ici',
  markers_nav_label: 'Publications sur la carte',
  markers_more: '{count} autres publications dans la liste',
  markers_more_one: '{count} autre publication dans la liste',
  view_toggle_label: 'Affichage des publications',
  view_map: 'Carte',
  view_list: 'Liste',
  list_title: 'Publications dans cette vue',
  list_count: '{count} publications',
  list_count_one: '{count} publication',
  list_sort_label: 'Trier par',
  list_sort_distance: 'Distance',
  list_sort_time: 'Plus récentes',
  list_empty: 'Aucune publication dans cette vue. Déplacez la carte ou changez de filtre.',
  list_show_all: 'Toutes les publications de la vue',
  list_open_post: 'Ouvrir la publication',
  cluster_show_list: 'Voir en liste',
  // Approximate location: the card's mark, also the create page's toggle label
  post_approximate: 'Position approximative',
} as const;
