import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

// The dev script runs the API on :3001; Vite proxies /api (HTTP and the realtime WebSocket) to it.
const API_TARGET = process.env.MOODMAP_API_URL ?? 'http://localhost:3001';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed file names under /assets/: the server serves them with long-cache headers.
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1500,
    // .vite/manifest.json: scripts/first-load-size.ts reads which chunks the first load fetches.
    manifest: true,
  },
});
