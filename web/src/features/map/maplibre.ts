/**
 * MapLibre as every map of the app loads it: the library, its stylesheet, and the worker URL
 * that a Vite build must set or no map ever loads. Import maps from here only,
 * and only from lazily loaded modules, so MapLibre stays out of the main bundle.
 */
import 'maplibre-gl/dist/maplibre-gl.css';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

maplibregl.setWorkerUrl(workerUrl);

export { maplibregl };
