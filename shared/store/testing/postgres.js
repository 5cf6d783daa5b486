// A PostgreSQL server of the machine's own (Debian's postgresql package), started in a scratch folder for a test and
// stopped after it. PostgreSQL refuses to run as root: as root, the folder is given to the postgres user and the
// server runs as it (runuser). Its socket is in the folder, so it never collides with a system server.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

/** The folder of PostgreSQL's programs: INITDB_PATH's, or the newest version Debian installed; undefined if none. */
function postgresBin() {
  if (process.env.INITDB_PATH) return path.dirname(process.env.INITDB_PATH);
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(root, newest, 'bin') : undefined;
}

/** A free TCP port on loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server; resolves to its URL, and how to stop, stop for a while, and start it again.
 * @param {{ port?: number }} [options]
 */
async function startPostgres({ port } = {}) {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-postgres-'));
  const data = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  /** @param {string} program @param {string[]} args */
  const run = (program, args) => {
    const command = asRoot
      ? ['runuser', '-u', 'postgres', '--', path.join(bin, program), ...args]
      : [path.join(bin, program), ...args];
    const result = spawnSync(/** @type {string} */ (command[0]), command.slice(1), { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
  };
  const chosen = port ?? /** @type {number} */ (await freePort());
  const options = `-p ${chosen} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    start();
  } catch (error) {
    // pg_ctl interrupted (Ctrl+C) may leave a server running in a session of its own: it is stopped, and the folder
    // removed, rather than left to whoever finds them.
    try {
      stop();
    } catch {
      // None started.
    }
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgresql://postgres@127.0.0.1:${chosen}/postgres`;
  // pg_ctl starts the server in a session of its own: its process group is the server's, every backend in it.
  const serverPid = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let databases = 0;
  return {
    url,
    /**
     * A new database on it, at this version's schema: its URL.
     * @param {string} [prefix]
     */
    migratedDatabase: async (prefix = 'store') => {
      databases += 1;
      const name = `${prefix}_${databases}`;
      const { Client } = require('pg');
      const admin = new Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const databaseUrl = url.replace(/\/postgres$/, `/${name}`);
      migrateInChild(databaseUrl);
      return databaseUrl;
    },
    port: chosen,
    start,
    stop,
    /**
     * Pauses (SIGSTOP) or resumes (SIGCONT) the server and every backend of it.
     * @param {'SIGSTOP' | 'SIGCONT'} signal
     */
    signal: (signal) => process.kill(-serverPid(), signal),
    /**
     * Kills the server and every backend of it at once (SIGKILL), as a machine that loses power: no shutdown, and
     * crash recovery at the next start(). Resolves once none of them runs.
     */
    kill: async () => {
      const pid = serverPid();
      process.kill(-pid, 'SIGKILL');
      for (;;) {
        try {
          process.kill(-pid, 0);
        } catch {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** Stops it and removes its folder. */
    remove: () => {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the store's migrations on a database, in a process of its own: node-pg-migrate is an ES module, which jest's
 * module registry cannot import.
 * @param {string} databaseUrl
 */
function migrateInChild(databaseUrl) {
  const script = `require(${JSON.stringify(require.resolve('../postgres/migrate'))}).migrateStore(process.argv[1])`;
  const result = spawnSync(
    process.execPath,
    ['-e', `${script}.catch((e) => { console.error(e.message); process.exit(1); })`, databaseUrl],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`the migrations failed: ${result.stderr}`);
}

module.exports = { startPostgres, postgresBin, migrateInChild };
