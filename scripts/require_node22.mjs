// npm runs scripts with the project's Node 22 (the `node` devDependency); without it (e.g. `--ignore-scripts`) it silently falls back to the system Node.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(
    `Chambers needs Node 22 or newer, but npm ran Node ${process.versions.node}.\n` +
      'The project ships Node 22 as a devDependency: run `npm ci` (with install scripts enabled) and retry.',
  );
  process.exit(1);
}
