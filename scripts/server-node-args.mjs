// The V8 flags the server process starts with (npm start, npm run start -w server, the start
// bench). A server's objects live for one request, so a small young generation suffices where
// V8 would otherwise grow it to 128 MB; and the embedded database (PGlite, WebAssembly) keeps
// its baseline machine code instead of also holding an optimised copy of the whole engine.
// Both keep an idle server small; the second costs some query speed on PGlite only
// (docs/architecture.md, "Memory").
export const SERVER_NODE_ARGS = ['--max-semi-space-size=4', '--liftoff-only'];
