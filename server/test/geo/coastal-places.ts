/**
 * Coastal places for the coast-accuracy test and bench (bench/coast/coast-accuracy.ts).
 *
 * `land` is a beach, quay or seafront of the place, on land. `offshore1km` / `offshore5km` were
 * found by walking from it along a seaward bearing to the first point at sea that lies at least
 * 1 km / 5 km from any shore. Both were checked against OSM land at 10 m precision
 * (@geo-maps/earth-lands-10m, 107 MB, not a dependency): every `land` point is inside it, every
 * offshore point outside it and that far from its coast — so they test the check against the
 * real shore, not against the data it decides with.
 */
export type LatLon = [latitude: number, longitude: number];

export interface CoastalPlace {
  name: string;
  land: LatLon;
  offshore1km: LatLon;
  offshore5km: LatLon;
}

export const COASTAL_PLACES: CoastalPlace[] = [
  {
    name: 'Saint-Denis de La Réunion, Barachois',
    land: [-20.8772, 55.448],
    offshore1km: [-20.8628, 55.448],
    offshore5km: [-20.8268, 55.448],
  },
  {
    name: 'Saint-Gilles-les-Bains beach, La Réunion',
    land: [-21.053, 55.2239],
    offshore1km: [-21.053, 55.2128],
    offshore5km: [-21.053, 55.1704],
  },
  {
    name: 'Mamoudzou, Mayotte',
    land: [-12.7806, 45.2278],
    offshore1km: [-12.7806, 45.3085],
    offshore5km: [-12.7806, 45.3463],
  },
  {
    name: 'Nice, Promenade des Anglais beach',
    land: [43.6947, 7.264],
    offshore1km: [43.6844, 7.264],
    offshore5km: [43.6223, 7.264],
  },
  {
    name: 'Marseille, Vieux-Port quay',
    land: [43.2951, 5.374],
    offshore1km: [43.2906, 5.3387],
    offshore5km: [43.2759, 5.225],
  },
  {
    name: 'Biarritz, Grande Plage',
    land: [43.484, -1.559],
    offshore1km: [43.4869, -1.5816],
    offshore5km: [43.4931, -1.6304],
  },
  {
    name: 'Saint-Malo, intra-muros',
    land: [48.6493, -2.0257],
    offshore1km: [48.6585, -2.0397],
    offshore5km: [48.7116, -2.1201],
  },
  {
    name: 'Brest, port de commerce',
    land: [48.3824, -4.485],
    offshore1km: [48.368, -4.485],
    offshore5km: [48.1436, -4.485],
  },
  { name: 'Le Havre, beach', land: [49.493, 0.093], offshore1km: [49.493, 0.0771], offshore5km: [49.493, 0.003] },
  {
    name: 'La Rochelle, Vieux-Port',
    land: [46.157, -1.1505],
    offshore1km: [46.1331, -1.1849],
    offshore5km: [46.1023, -1.2294],
  },
  {
    name: 'Saint-Tropez, port',
    land: [43.2698, 6.6339],
    offshore1km: [43.2797, 6.6574],
    offshore5km: [43.3282, 6.7731],
  },
  {
    name: 'Cherbourg, harbour',
    land: [49.6376, -1.622],
    offshore1km: [49.6682, -1.622],
    offshore5km: [49.7082, -1.622],
  },
  {
    name: 'Ajaccio, port Charles-Ornano quay',
    land: [41.9275, 8.7395],
    offshore1km: [41.9085, 8.744],
    offshore5km: [41.4696, 8.8472],
  },
  { name: 'Bastia, Vieux-Port', land: [42.697, 9.451], offshore1km: [42.697, 9.4687], offshore5km: [42.697, 9.5189] },
  {
    name: 'Pointe-à-Pitre, Place de la Victoire',
    land: [16.239, -61.534],
    offshore1km: [16.2075, -61.534],
    offshore5km: [15.9962, -61.534],
  },
  {
    name: 'Fort-de-France, La Savane',
    land: [14.6012, -61.0699],
    offshore1km: [14.5915, -61.0736],
    offshore5km: [14.4541, -61.1252],
  },
  {
    name: 'Nouméa, Anse Vata beach',
    land: [-22.298, 166.443],
    offshore1km: [-22.3128, 166.4372],
    offshore5km: [-22.3508, 166.4222],
  },
  {
    name: 'Papeete, waterfront',
    land: [-17.535, -149.569],
    offshore1km: [-17.5216, -149.583],
    offshore5km: [-17.4962, -149.6097],
  },
  {
    name: 'Cayenne, Place des Palmistes',
    land: [4.9386, -52.333],
    offshore1km: [4.9515, -52.3404],
    offshore5km: [4.9826, -52.3585],
  },
  {
    name: 'Dakar, Anse Bernard',
    land: [14.6614, -17.4335],
    offshore1km: [14.6493, -17.421],
    offshore5km: [14.622, -17.3928],
  },
  {
    name: 'Valparaíso, Muelle Prat',
    land: [-33.0375, -71.627],
    offshore1km: [-33.0128, -71.627],
    offshore5km: [-32.9745, -71.627],
  },
  {
    name: 'Sydney, Bondi Beach',
    land: [-33.8908, 151.2743],
    offshore1km: [-33.8941, 151.2967],
    offshore5km: [-33.9003, 151.3394],
  },
  {
    name: 'Cape Town, Sea Point promenade',
    land: [-33.915, 18.388],
    offshore1km: [-33.9098, 18.3772],
    offshore5km: [-33.8909, 18.3378],
  },
  {
    name: 'Reykjavik, old harbour',
    land: [64.147, -21.928],
    offshore1km: [64.1715, -22.0254],
    offshore5km: [64.1901, -22.0997],
  },
  {
    name: 'Venice, Piazza San Marco',
    land: [45.434, 12.3388],
    offshore1km: [45.4257, 12.4057],
    offshore5km: [45.4115, 12.5192],
  },
  {
    name: 'Copenhagen, Nyhavn',
    land: [55.6798, 12.5896],
    offshore1km: [55.6798, 12.663],
    offshore5km: [55.6795, 12.8536],
  },
  {
    name: 'Honolulu, Waikiki Beach',
    land: [21.2763, -157.8268],
    offshore1km: [21.2662, -157.8331],
    offshore5km: [21.2296, -157.8557],
  },
  {
    name: 'Rio de Janeiro, Copacabana',
    land: [-22.9711, -43.1822],
    offshore1km: [-22.9787, -43.1739],
    offshore5km: [-23.0086, -43.1414],
  },
  { name: 'Brighton, beach', land: [50.8195, -0.137], offshore1km: [50.8087, -0.137], offshore5km: [50.7673, -0.137] },
  {
    name: 'Barcelona, Barceloneta beach',
    land: [41.3785, 2.1925],
    offshore1km: [41.3699, 2.2039],
    offshore5km: [41.3416, 2.2416],
  },
  { name: 'Cascais, beach', land: [38.697, -9.421], offshore1km: [38.6804, -9.421], offshore5km: [38.6439, -9.421] },
  {
    name: 'Naples, Via Caracciolo',
    land: [40.833, 14.233],
    offshore1km: [40.8191, 14.233],
    offshore5km: [40.7597, 14.233],
  },
  {
    name: 'Mumbai, Marine Drive',
    land: [18.944, 72.823],
    offshore1km: [18.9403, 72.8123],
    offshore5km: [18.9191, 72.7506],
  },
  { name: 'Miami Beach', land: [25.782, -80.129], offshore1km: [25.782, -80.117], offshore5km: [25.782, -80.0761] },
  { name: 'Dubrovnik, old town', land: [42.641, 18.11], offshore1km: [42.6158, 18.11], offshore5km: [42.5776, 18.11] },
];
