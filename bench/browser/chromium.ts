/**
 * The Chromium the browser benches drive: the e2e journeys' flags (e2e/playwright.config.ts,
 * headless, WebGL through SwiftShader), with software compositing (`--disable-gpu`) as the
 * journeys run. There, every WebGL frame is read back (GLES2::ReadPixels) on the page's main
 * thread, which waits while SwiftShader draws: most of each map frame's main-thread time in a
 * trace of the add-post window, a cost no phone's GPU compositor has. BENCH_COMPOSITING=gpu drops
 * `--disable-gpu`: the GPU process composites (with SwiftShader too) and the main thread no longer
 * waits for the read-back, but on 2 cores that process competes with the page and the server:
 * taps, pans and the first load measured slower that way (bench/results/browser-gpu.json).
 */
import { CHROMIUM_ARGS as E2E_ARGS } from '../../e2e/chromium-args.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const COMPOSITING: 'software' | 'gpu' = process.env.BENCH_COMPOSITING === 'gpu' ? 'gpu' : 'software';
export const CHROMIUM_ARGS = COMPOSITING === 'gpu' ? E2E_ARGS.filter((flag) => flag !== '--disable-gpu') : E2E_ARGS;
