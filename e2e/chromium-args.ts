/**
 * Debian's Chromium, headless, WebGL through SwiftShader, software compositing: the flags of the
 * browser journeys (playwright.config.ts) and of the browser benches (bench/browser/chromium.ts).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];
