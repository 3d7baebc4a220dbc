/**
 * Where posts and viewers are: ~230 large cities weighted 1–5 (70 % of posts, gaussian around
 * each), land-ish boxes for the rest, a seeded generator so runs compare, and the view bounds and
 * URLs the web app itself requests for a map of a given size, centre and zoom.
 */

/** About 200 large cities [name, latitude, longitude, weight 1–5]: where most posts land. */
export const CITIES: Array<[string, number, number, number]> = [
  ['Paris', 48.857, 2.352, 5], ['Lyon', 45.764, 4.836, 3], ['Marseille', 43.296, 5.37, 3], ['Toulouse', 43.605, 1.444, 2],
  ['Nice', 43.71, 7.262, 2], ['Nantes', 47.218, -1.554, 2], ['Strasbourg', 48.573, 7.752, 2], ['Montpellier', 43.611, 3.877, 2],
  ['Bordeaux', 44.838, -0.579, 2], ['Lille', 50.629, 3.057, 2], ['Rennes', 48.117, -1.678, 2], ['Saint-Denis (Réunion)', -20.882, 55.45, 2],
  ['Fort-de-France', 14.616, -61.059, 1], ['Pointe-à-Pitre', 16.241, -61.533, 1], ['Nouméa', -22.276, 166.458, 1], ['Papeete', -17.535, -149.57, 1],
  ['Cayenne', 4.922, -52.313, 1], ['Mamoudzou', -12.781, 45.228, 1], ['Ajaccio', 41.919, 8.738, 1], ['Grenoble', 45.188, 5.724, 1],
  ['Brussels', 50.85, 4.352, 3], ['Geneva', 46.204, 6.143, 2], ['Lausanne', 46.52, 6.633, 1], ['Luxembourg', 49.611, 6.13, 1],
  ['Montreal', 45.502, -73.567, 3], ['Quebec', 46.813, -71.208, 2], ['Dakar', 14.716, -17.467, 2], ['Abidjan', 5.36, -4.008, 2],
  ['Casablanca', 33.573, -7.59, 2], ['Rabat', 34.02, -6.841, 1], ['Algiers', 36.754, 3.059, 2], ['Tunis', 36.806, 10.181, 2],
  ['Kinshasa', -4.441, 15.266, 2], ['Douala', 4.051, 9.768, 1], ['Yaoundé', 3.848, 11.502, 1], ['Bamako', 12.639, -8.003, 1],
  ['Antananarivo', -18.879, 47.508, 1], ['Port Louis', -20.161, 57.501, 1], ['Beirut', 33.894, 35.502, 1], ['Port-au-Prince', 18.594, -72.307, 1],
  ['London', 51.507, -0.128, 5], ['Manchester', 53.48, -2.242, 2], ['Birmingham', 52.486, -1.89, 2], ['Glasgow', 55.864, -4.252, 1],
  ['Edinburgh', 55.953, -3.188, 1], ['Dublin', 53.35, -6.26, 2], ['Amsterdam', 52.368, 4.904, 2], ['Rotterdam', 51.924, 4.478, 1],
  ['Berlin', 52.52, 13.405, 3], ['Hamburg', 53.551, 9.994, 2], ['Munich', 48.135, 11.582, 2], ['Cologne', 50.938, 6.96, 2],
  ['Frankfurt', 50.11, 8.682, 2], ['Stuttgart', 48.776, 9.183, 1], ['Vienna', 48.208, 16.374, 2], ['Zurich', 47.377, 8.541, 2],
  ['Madrid', 40.417, -3.704, 3], ['Barcelona', 41.385, 2.173, 3], ['Valencia', 39.47, -0.376, 2], ['Seville', 37.389, -5.984, 1],
  ['Lisbon', 38.722, -9.139, 2], ['Porto', 41.158, -8.629, 1], ['Rome', 41.903, 12.496, 3], ['Milan', 45.464, 9.19, 3],
  ['Naples', 40.852, 14.268, 2], ['Turin', 45.07, 7.687, 1], ['Athens', 37.984, 23.728, 2], ['Istanbul', 41.008, 28.978, 4],
  ['Ankara', 39.934, 32.86, 2], ['Warsaw', 52.23, 21.012, 2], ['Krakow', 50.065, 19.945, 1], ['Prague', 50.076, 14.438, 2],
  ['Budapest', 47.498, 19.04, 2], ['Bucharest', 44.427, 26.103, 2], ['Sofia', 42.698, 23.322, 1], ['Belgrade', 44.787, 20.457, 1],
  ['Copenhagen', 55.676, 12.568, 2], ['Stockholm', 59.329, 18.069, 2], ['Oslo', 59.914, 10.752, 1], ['Helsinki', 60.17, 24.938, 1],
  ['Reykjavik', 64.147, -21.942, 1], ['Moscow', 55.756, 37.617, 4], ['Saint Petersburg', 59.939, 30.316, 2], ['Kyiv', 50.45, 30.523, 2],
  ['Minsk', 53.9, 27.567, 1], ['Riga', 56.95, 24.105, 1], ['Vilnius', 54.687, 25.28, 1], ['Tallinn', 59.437, 24.754, 1],
  ['Novosibirsk', 55.008, 82.935, 1], ['Yekaterinburg', 56.838, 60.597, 1], ['Vladivostok', 43.115, 131.886, 1], ['Anadyr', 64.734, 177.514, 1],
  ['New York', 40.713, -74.006, 5], ['Los Angeles', 34.052, -118.244, 4], ['Chicago', 41.878, -87.63, 3], ['Houston', 29.76, -95.37, 3],
  ['Phoenix', 33.448, -112.074, 2], ['Philadelphia', 39.953, -75.165, 2], ['San Antonio', 29.424, -98.494, 1], ['San Diego', 32.716, -117.161, 2],
  ['Dallas', 32.777, -96.797, 2], ['San Francisco', 37.775, -122.419, 3], ['Seattle', 47.606, -122.332, 2], ['Denver', 39.739, -104.99, 2],
  ['Boston', 42.36, -71.059, 2], ['Miami', 25.762, -80.192, 3], ['Atlanta', 33.749, -84.388, 2], ['Washington', 38.907, -77.037, 2],
  ['Detroit', 42.331, -83.046, 1], ['Minneapolis', 44.978, -93.265, 1], ['New Orleans', 29.951, -90.072, 1], ['Las Vegas', 36.17, -115.14, 1],
  ['Honolulu', 21.307, -157.858, 1], ['Anchorage', 61.218, -149.9, 1], ['Toronto', 43.653, -79.383, 3], ['Vancouver', 49.283, -123.121, 2],
  ['Calgary', 51.045, -114.072, 1], ['Ottawa', 45.421, -75.697, 1], ['Mexico City', 19.433, -99.133, 4], ['Guadalajara', 20.659, -103.35, 2],
  ['Monterrey', 25.686, -100.316, 2], ['Havana', 23.113, -82.366, 1], ['Santo Domingo', 18.486, -69.931, 1], ['San Juan', 18.466, -66.106, 1],
  ['Guatemala City', 14.634, -90.506, 1], ['Panama City', 8.982, -79.519, 1], ['Bogotá', 4.711, -74.072, 3], ['Medellín', 6.244, -75.581, 2],
  ['Caracas', 10.48, -66.904, 2], ['Lima', -12.046, -77.043, 3], ['Quito', -0.18, -78.468, 1], ['Santiago', -33.449, -70.669, 3],
  ['Buenos Aires', -34.604, -58.382, 4], ['Montevideo', -34.901, -56.165, 1], ['São Paulo', -23.551, -46.633, 5], ['Rio de Janeiro', -22.907, -43.173, 4],
  ['Brasília', -15.794, -47.882, 2], ['Salvador', -12.977, -38.501, 2], ['Fortaleza', -3.732, -38.527, 2], ['Recife', -8.048, -34.877, 1],
  ['Belo Horizonte', -19.917, -43.935, 2], ['Manaus', -3.119, -60.022, 1], ['Porto Alegre', -30.035, -51.218, 1], ['La Paz', -16.49, -68.119, 1],
  ['Asunción', -25.264, -57.576, 1], ['Cairo', 30.044, 31.236, 4], ['Alexandria', 31.2, 29.919, 2], ['Lagos', 6.524, 3.379, 4],
  ['Abuja', 9.076, 7.399, 1], ['Accra', 5.603, -0.187, 2], ['Nairobi', -1.292, 36.822, 2], ['Addis Ababa', 8.98, 38.757, 2],
  ['Dar es Salaam', -6.792, 39.208, 2], ['Kampala', 0.347, 32.582, 1], ['Luanda', -8.839, 13.289, 2], ['Johannesburg', -26.204, 28.047, 3],
  ['Cape Town', -33.925, 18.424, 2], ['Durban', -29.858, 31.022, 1], ['Khartoum', 15.5, 32.56, 1], ['Tel Aviv', 32.085, 34.782, 2],
  ['Amman', 31.954, 35.911, 1], ['Riyadh', 24.713, 46.675, 2], ['Jeddah', 21.485, 39.193, 2], ['Dubai', 25.205, 55.271, 3],
  ['Doha', 25.285, 51.531, 1], ['Tehran', 35.689, 51.389, 3], ['Baghdad', 33.315, 44.366, 2], ['Karachi', 24.861, 67.01, 3],
  ['Lahore', 31.52, 74.359, 3], ['Islamabad', 33.684, 73.048, 1], ['Kabul', 34.555, 69.207, 1], ['Tashkent', 41.3, 69.24, 1],
  ['Almaty', 43.222, 76.851, 1], ['Delhi', 28.614, 77.209, 5], ['Mumbai', 19.076, 72.878, 5], ['Bangalore', 12.972, 77.595, 3],
  ['Kolkata', 22.573, 88.364, 3], ['Chennai', 13.083, 80.271, 3], ['Hyderabad', 17.385, 78.487, 3], ['Ahmedabad', 23.023, 72.571, 2],
  ['Pune', 18.52, 73.857, 2], ['Dhaka', 23.811, 90.413, 4], ['Kathmandu', 27.717, 85.324, 1], ['Colombo', 6.927, 79.861, 1],
  ['Yangon', 16.866, 96.195, 1], ['Bangkok', 13.756, 100.502, 4], ['Hanoi', 21.028, 105.834, 2], ['Ho Chi Minh City', 10.823, 106.63, 3],
  ['Phnom Penh', 11.556, 104.928, 1], ['Kuala Lumpur', 3.139, 101.687, 3], ['Singapore', 1.352, 103.82, 3], ['Jakarta', -6.209, 106.846, 4],
  ['Surabaya', -7.258, 112.752, 2], ['Bandung', -6.917, 107.619, 1], ['Denpasar', -8.65, 115.216, 1], ['Manila', 14.6, 120.984, 4],
  ['Cebu', 10.316, 123.891, 1], ['Beijing', 39.904, 116.407, 5], ['Shanghai', 31.23, 121.474, 5], ['Guangzhou', 23.129, 113.264, 4],
  ['Shenzhen', 22.543, 114.058, 4], ['Hong Kong', 22.32, 114.169, 3], ['Chengdu', 30.573, 104.066, 3], ['Chongqing', 29.563, 106.551, 3],
  ['Wuhan', 30.593, 114.305, 3], ['Xi\'an', 34.341, 108.94, 2], ['Tianjin', 39.343, 117.362, 2], ['Nanjing', 32.06, 118.797, 2],
  ['Hangzhou', 30.274, 120.155, 2], ['Shenyang', 41.805, 123.431, 1], ['Harbin', 45.803, 126.535, 1], ['Taipei', 25.033, 121.565, 3],
  ['Seoul', 37.567, 126.978, 4], ['Busan', 35.18, 129.075, 2], ['Pyongyang', 39.039, 125.763, 1], ['Tokyo', 35.676, 139.65, 5],
  ['Osaka', 34.694, 135.502, 3], ['Nagoya', 35.181, 136.906, 2], ['Sapporo', 43.062, 141.354, 1], ['Fukuoka', 33.59, 130.402, 1],
  ['Ulaanbaatar', 47.886, 106.906, 1], ['Sydney', -33.869, 151.209, 3], ['Melbourne', -37.814, 144.963, 3], ['Brisbane', -27.47, 153.026, 2],
  ['Perth', -31.95, 115.86, 2], ['Adelaide', -34.929, 138.601, 1], ['Auckland', -36.849, 174.763, 2], ['Wellington', -41.287, 174.776, 1],
  ['Christchurch', -43.532, 172.637, 1], ['Suva', -18.124, 178.45, 1], ['Port Moresby', -9.443, 147.18, 1], ['Apia', -13.833, -171.767, 1],
];

/** Land-ish boxes [south, west, north, east, weight] for the 30 % of posts outside cities. */
export const BOXES: Array<[number, number, number, number, number]> = [
  [36, -10, 60, 40, 3], [25, -125, 55, -65, 4], [-40, -75, 5, -35, 3],
  [-30, -10, 30, 40, 4], [10, 60, 55, 140, 5], [-38, 115, -12, 153, 1],
];

/** mulberry32: tiny seeded PRNG. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], weights: readonly number[], r: number): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = r * total;
  for (let i = 0; i < items.length; i++) {
    x -= weights[i];
    if (x < 0) return items[i];
  }
  return items[items.length - 1];
}

export const PARIS = { latitude: 48.857, longitude: 2.352 };
