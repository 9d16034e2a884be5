// After `npm install`/`npm ci`: npm itself may run on an older system Node (its engine warnings are hidden by
// .npmrc's loglevel=error, one per package that needs Node 22); say it once, and that nothing needs doing.
const agent = process.env.npm_config_user_agent ?? '';
const npmNode = /node\/v?(\d+)\.\S*/.exec(agent);
if (npmNode && Number(npmNode[1]) < 22) {
  console.log(
    `npm ran on Node ${npmNode[0].slice(5)}; the project's scripts run on its own Node ${process.versions.node} (the \`node\` devDependency), which the packages need. Nothing to do. (npm's warnings are hidden by .npmrc; \`npm install --loglevel=warn\` shows them.)`,
  );
}
