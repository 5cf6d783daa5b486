// The system programs the integration tests drive: found where Debian installs them (or where an environment variable
// says), and installed with apt when missing and this user may (root, or sudo without a password). Run by `npm test`
// before anything else, so a fresh Debian machine needs no other set-up step than the README's; and, for the programs
// it starts, by the topology of many nodes (topology.js) before it starts any.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

/**
 * @typedef {object} SystemTool
 * @property {string} name  what messages call it
 * @property {import('./engines').EngineName} [engine]  the one engine whose suite needs it, if not every run
 * @property {string} debianPackage
 * @property {string} env  the variable that overrides where it is
 * @property {string[]} paths  where Debian installs it
 */

/**
 * What the tests need: the Debian package, where it installs the program, and the variable that overrides it.
 * `engine` marks what only one browser engine's suite needs (see engines/index.js): it is looked for only when that
 * engine is under test.
 * @type {SystemTool[]}
 */
const TOOLS = [
  {
    name: 'Chromium',
    debianPackage: 'chromium',
    env: 'CHROME_PATH',
    paths: [
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
    ],
  },
  { name: 'nginx', debianPackage: 'nginx', env: 'NGINX_PATH', paths: ['/usr/sbin/nginx', '/usr/bin/nginx'] },
  // nginx's module that sends a composed document's .br file (documentFiles.js); without it, nginx sends the .gz one.
  {
    name: "nginx's brotli_static module",
    debianPackage: 'libnginx-mod-http-brotli-static',
    env: 'NGINX_BROTLI_MODULE',
    paths: ['/usr/lib/nginx/modules/ngx_http_brotli_static_module.so'],
  },
  // The store on PostgreSQL (@nativegtm/store's tests start a server of their own in a scratch folder).
  {
    name: 'PostgreSQL',
    debianPackage: 'postgresql',
    env: 'INITDB_PATH',
    paths: ['18', '17', '16', '15'].map((version) => `/usr/lib/postgresql/${version}/bin/initdb`),
  },
  // The load balancer in front of many nodes (topology.js).
  { name: 'HAProxy', debianPackage: 'haproxy', env: 'HAPROXY_PATH', paths: ['/usr/sbin/haproxy'] },
  // The shared cache in front of the site in the canary tests (docs/cdn.vcl).
  { name: 'Varnish', debianPackage: 'varnish', env: 'VARNISHD_PATH', paths: ['/usr/sbin/varnishd'] },
  // A slow, lossy link between one node and the database (slowLink.js): a network namespace, and packet loss in it.
  { name: 'ip', debianPackage: 'iproute2', env: 'IP_PATH', paths: ['/usr/sbin/ip', '/sbin/ip', '/bin/ip'] },
  {
    name: 'iptables',
    debianPackage: 'iptables',
    env: 'IPTABLES_PATH',
    paths: ['/usr/sbin/iptables', '/sbin/iptables'],
  },
  {
    name: 'Firefox',
    engine: 'firefox',
    debianPackage: 'firefox-esr',
    env: 'FIREFOX_PATH',
    paths: ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
  },
  {
    name: 'WebKitWebDriver',
    engine: 'webkit',
    debianPackage: 'webkit2gtk-driver',
    env: 'WEBKIT_DRIVER_PATH',
    paths: ['/usr/bin/WebKitWebDriver'],
  },
  {
    // WebKitGTK's reference browser, which WebKitWebDriver starts; it comes with the engine's library.
    name: 'MiniBrowser',
    engine: 'webkit',
    debianPackage: 'libwebkit2gtk-4.1-0',
    env: 'MINIBROWSER_PATH',
    paths: [
      ...['x86_64', 'aarch64', 'arm', 'i386', 'powerpc64le', 'riscv64', 's390x'].map(
        (arch) => `/usr/lib/${arch}-linux-gnu${arch === 'arm' ? 'eabihf' : ''}/webkit2gtk-4.1/MiniBrowser`,
      ),
      '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
    ],
  },
  {
    // MiniBrowser has no headless mode: it draws into a virtual X display.
    name: 'Xvfb',
    engine: 'webkit',
    debianPackage: 'xvfb',
    env: 'XVFB_PATH',
    paths: ['/usr/bin/Xvfb'],
  },
];

/**
 * The tools the suites of these engines need (plus what every run needs).
 * @param {readonly string[]} engines  names of engines (engines/index.js)
 */
function toolsFor(engines) {
  return TOOLS.filter((tool) => !tool.engine || engines.includes(tool.engine));
}

/**
 * The tools of these names (what messages call them), for a command that needs only some.
 * @param {string[]} names
 */
function toolsNamed(names) {
  return names.map((name) => {
    const tool = TOOLS.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`No system tool is called ${name}.`);
    return tool;
  });
}

/**
 * Where the tool is: the file its variable names, else the first of its usual paths that exists.
 * @param {SystemTool} tool
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
function locate(tool, env = process.env) {
  const override = env[tool.env];
  if (override) return fs.existsSync(override) ? override : undefined;
  return tool.paths.find((candidate) => fs.existsSync(candidate));
}

/**
 * The program of the tool whose variable is `envName`, or an error that says which Debian package provides it (for
 * a run that skipped `npm test`'s set-up, such as one spec file run alone).
 * @param {string} envName
 * @param {NodeJS.ProcessEnv} [env]
 * @param {SystemTool[]} [tools]
 * @returns {string}
 */
function locateTool(envName, env = process.env, tools = TOOLS) {
  const tool = tools.find((candidate) => candidate.env === envName);
  if (!tool) throw new Error(`No system tool is found through ${envName}.`);
  const found = locate(tool, env);
  if (found) return found;
  if (env[tool.env]) throw new Error(`${tool.env} points to ${env[tool.env]}, which does not exist.`);
  throw new Error(
    `No ${tool.name} found (looked in ${tool.paths.join(', ')}). It comes with the Debian package ` +
      `${tool.debianPackage}: ${installCommand([tool.debianPackage])}, or set ${tool.env}.`,
  );
}

/**
 * @param {SystemTool} tool
 * @param {NodeJS.ProcessEnv} [env]
 */
function isPresent(tool, env = process.env) {
  return locate(tool, env) !== undefined;
}

/**
 * @param {string} command
 * @param {string[]} args
 */
function succeeds(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/**
 * How this process may run apt-get as root: directly, through sudo without a password, or not at all.
 * @returns {string[] | null}
 */
function rootPrefix() {
  if (process.getuid?.() === 0) return [];
  if (succeeds('sudo', ['-n', 'true'])) return ['sudo', '-n'];
  return null;
}

/** @param {string[]} packages */
function installCommand(packages) {
  return `sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

/**
 * Makes sure every tool is there. Installs what is missing when it can, saying so in one line; otherwise throws an
 * error that gives the exact command to run.
 * @param {{ tools?: SystemTool[], purpose?: string, log?: (line: string) => void, env?: NodeJS.ProcessEnv,
 *   asRoot?: () => string[] | null }} [options]  purpose: what needs the tools, as the messages name it; asRoot: the
 *   command prefix that runs apt-get as root, or null
 * @returns {string[]} the Debian packages it installed
 */
function ensureSystemTools({
  tools = TOOLS,
  purpose = 'the integration tests',
  log = (line) => process.stdout.write(`${line}\n`),
  env = process.env,
  asRoot = rootPrefix,
} = {}) {
  const missing = tools.filter((tool) => !isPresent(tool, env));
  if (missing.length === 0) return [];
  const badOverride = missing.find((tool) => env[tool.env]);
  if (badOverride) {
    throw new Error(`${badOverride.env} points to ${env[badOverride.env]}, which does not exist.`);
  }
  const packages = missing.map((tool) => tool.debianPackage);
  const prefix = asRoot();
  const hasApt = succeeds('sh', ['-c', 'command -v apt-get']);
  if (!prefix || !hasApt) {
    throw new Error(
      `For ${purpose}, this machine lacks ${missing.map((tool) => tool.name).join(' and ')}. ` +
        (hasApt
          ? `Install with: ${installCommand(packages)}`
          : `Install the Debian packages ${packages.join(', ')} or their equivalents`) +
        ` (or point ${missing.map((tool) => tool.env).join(' / ')} at the programs).`,
    );
  }
  log(`Installing for ${purpose}: ${packages.join(' ')} (apt-get)…`);
  /** @param {string[]} args */
  const run = (args) => {
    const [command, ...rest] = /** @type {[string, ...string[]]} */ ([...prefix, ...args]);
    const result = spawnSync(command, rest, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      throw new Error(`\`${args.join(' ')}\` failed (exit ${result.status}). Run: ${installCommand(packages)}`);
    }
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages]);
  const stillMissing = missing.filter((tool) => !isPresent(tool, env));
  if (stillMissing.length > 0) {
    throw new Error(
      `Installed ${packages.join(' ')}, but ${stillMissing.map((t) => t.name).join(', ')} is still missing.`,
    );
  }
  return packages;
}

module.exports = { ensureSystemTools, toolsFor, toolsNamed, locateTool };
