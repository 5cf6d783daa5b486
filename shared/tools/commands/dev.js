#!/usr/bin/env node
// `npm run dev`: the shell and every page remote of the registry (shared/contract/pages.js) in watch mode, on their
// `npm start` ports, as one command with one prefixed log.
const { concurrently } = require('concurrently');
const { deployables } = require('@nativegtm/server/deployables');

const colors = ['blue', 'magenta', 'cyan', 'green', 'yellow', 'red', 'white', 'gray'];
const { result } = concurrently(
  deployables.map((deployable, index) => ({
    command: `npm run dev -w ${deployable.name}`,
    name: deployable.name.replace(/-mfe$/, ''),
    prefixColor: colors[index % colors.length],
  })),
  { killOthersOn: ['failure'] },
);
result.catch(() => process.exit(1));
