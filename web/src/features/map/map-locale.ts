/**
 * MapLibre's own control texts in French, through its `locale` option: without it
 * the zoom buttons read 'Zoom in' / 'Zoom out'. Shared by the main map and the location picker.
 */
import { SHELL_MESSAGES } from '@moodmap/core';

export const MAP_LOCALE: Record<string, string> = {
  'AttributionControl.ToggleAttribution': 'Afficher les crédits',
  'AttributionControl.MapFeedback': 'Signaler une erreur de carte',
  'FullscreenControl.Enter': 'Plein écran',
  'FullscreenControl.Exit': 'Quitter le plein écran',
  'GeolocateControl.FindMyLocation': 'Me localiser',
  'GeolocateControl.LocationNotAvailable': 'Position non disponible',
  'GlobeControl.Enable': 'Afficher le globe',
  'GlobeControl.Disable': 'Afficher la carte plane',
  'LogoControl.Title': 'Logo MapLibre',
  'Map.Title': SHELL_MESSAGES.map_label,
  'Marker.Title': SHELL_MESSAGES.my_position,
  'NavigationControl.ResetBearing': 'Réorienter vers le nord',
  'NavigationControl.ZoomIn': 'Zoomer',
  'NavigationControl.ZoomOut': 'Dézoomer',
  'Popup.Close': 'Fermer',
  'ScaleControl.Feet': 'pi',
  'ScaleControl.Meters': 'm',
  'ScaleControl.Kilometers': 'km',
  'ScaleControl.Miles': 'mi',
  'ScaleControl.NauticalMiles': 'nm',
  'TerrainControl.Enable': 'Activer le relief',
  'TerrainControl.Disable': 'Désactiver le relief',
  'CooperativeGesturesHandler.WindowsHelpText': 'Utilisez Ctrl + molette pour zoomer la carte',
  'CooperativeGesturesHandler.MacHelpText': 'Utilisez ⌘ + molette pour zoomer la carte',
  'CooperativeGesturesHandler.MobileHelpText': 'Utilisez deux doigts pour déplacer la carte',
};
