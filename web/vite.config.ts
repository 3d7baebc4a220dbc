import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { type Plugin, defineConfig } from 'vite';
import { precompress } from './precompress.ts';

/**
 * The lazily imported modules the first screen needs at once: the map (Shell draws it). (Core's
 * zod schemas are not among them: the config and viewport answers the map waits for are read
 * without zod, lib/config.ts and features/posts/viewport-answer.ts.) Matched by the end of their path.
 */
const FIRST_SCREEN = ['src/features/map/MapView.tsx'];

/**
 * `<link rel="modulepreload">` in index.html for those chunks and their static imports (MapLibre
 * among them). Vite preloads them only when the dynamic import runs: the map's once the entry
 * chunk has downloaded, compiled and run. From the HTML the browser fetches and compiles them
 * early; they run when imported. Chunks the entry already imports are preloaded by Vite.
 */
function preloadFirstScreen(): Plugin {
  return {
    name: 'moodmap-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const screens = FIRST_SCREEN.map((module) => {
          const screen = chunks.find((c) => c.facadeModuleId?.endsWith(module));
          if (!screen) throw new Error(`no chunk for ${module}: update FIRST_SCREEN in vite.config.ts`);
          return screen;
        });
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const entryFiles = new Set<string>([entry.fileName]);
        const withImports = (file: string, into: Set<string>) => {
          if (into.has(file)) return;
          into.add(file);
          for (const imported of byFile.get(file)?.imports ?? []) withImports(imported, into);
        };
        for (const imported of entry.imports) withImports(imported, entryFiles);
        const screenFiles = new Set<string>();
        for (const screen of screens) withImports(screen.fileName, screenFiles);
        const files = [...screenFiles].filter((file) => !entryFiles.has(file));
        // Their stylesheets too (MapLibre's): the dynamic import resolves only once they have loaded.
        const styles = new Set(files.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]));
        return [
          ...files.map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
          ...[...styles].map((file) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

// The dev script runs the API on :3001; Vite proxies /api (HTTP and the realtime WebSocket) to it.
const API_TARGET = process.env.MOODMAP_API_URL ?? 'http://localhost:3001';

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadFirstScreen(), precompress()],
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
