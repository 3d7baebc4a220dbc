/**
 * The Chromium the browser benches drive: the e2e journeys' flags (e2e/playwright.config.ts,
 * headless, WebGL through SwiftShader) except `--disable-gpu`, so the page is composited by the GPU
 * process (SwiftShader too), as a phone's GPU composites it. With `--disable-gpu` the compositor
 * is software: every WebGL frame is read back (GLES2::ReadPixels) on the page's main thread, which
 * waits there while SwiftShader draws, ~70–90 % of each map frame's main-thread time in a trace of
 * the add-post window, a cost no phone has. BENCH_COMPOSITING=software measures that way.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const E2E_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];
export const COMPOSITING = process.env.BENCH_COMPOSITING === 'software' ? 'software' : 'gpu';
export const CHROMIUM_ARGS = COMPOSITING === 'software' ? E2E_ARGS : E2E_ARGS.filter((flag) => flag !== '--disable-gpu');
