// The PostgreSQL backend of the store (../storeBackend.js): one remote's state in the database's rows
// (./migrations/), its releases' files in object storage (./objectStore.js).
//
// A change reads the remote's rows as they are at one revision, runs the rule on them with its writes kept aside,
// then makes the writes in one transaction that first locks the remote's row and checks its revision is still the
// one read: otherwise another change committed meanwhile, and this one is refused naming it (no lost update, even
// across machines). The commit takes the next store revision, records who made the change in the audit, and notifies
// the nodes (LISTEN nativegtm_store), which learn of it at once.
//
// Revisions follow commit order, across remotes: the commit takes its revision under one lock held until it commits
// (REVISION_LOCK), so a change that took a lower revision is visible before any change can take a higher one. A node
// that has synced revision r therefore has every change up to r, and a look that finds the highest revision still r
// may skip the rows (./snapshotSync.js). Without the lock, a change of jobs could take r1, one of candidates r2 and
// commit first, a node sync to r2, and jobs' change commit later under a revision the node thinks it has: the review
// that found it left jobs' promote unseen until some other change. The lock is held only from the revision to the
// commit (one insert into the audit, one notify): two remotes' changes wait for each other for moments, never for
// a rule or an upload. A command that stops while it holds the lock (paused, its link gone quiet) would hold every
// remote's commit: its session is ended by PostgreSQL once it has sat idle in the transaction for STALLED_COMMIT_MS,
// which gives the lock back and changes nothing of its change (it fails as "database unavailable", and is run again).
// Before the lock it holds only its own remote's row, and may wait there on object storage: a stall then holds that
// remote's changes and lease renewals alone, until its connection goes (docs/many-nodes.md, Limits).
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { machineActor, isActor } = require('../actor');
const { canaryStateProblem } = require('../canaryInStore');
const { isEndedCanary } = require('../canaryChanges');
const { withRenewal } = require('../canaryLease');
const { isLiveChange } = require('../liveHistory');
const { checkBuild, checkIntegrity, filesUnder, isHashedFile, releaseId } = require('../publish');
const { metadataCheck } = require('../releaseFiles');
const { StoreConflict, StoreRefusal } = require('../storeRefusal');
const { ReleaseFilesGone, checkUploaded, lockRelease, removeUnrecorded } = require('./releaseObjects');

/** @typedef {import('../storeBackend').RemoteState} RemoteState */
/** @typedef {import('../storeBackend').StoreBackend} StoreBackend */
/** @typedef {import('../records').ReleaseRecord} ReleaseRecord */

/** Why a release recorded without its files' integrity cannot be made live, previewed or rolled back to. */
const NO_INTEGRITY =
  "its record lists no file's integrity (published before releases had one): build it again and publish that";
/** @typedef {import('../records').GateResult} GateResult */
/** @typedef {{ path: string, size: number, sha256: string }} ReleaseFile */
/** @typedef {import('pg').PoolClient} Client */

/** The channel a commit notifies, with the store revision it made. */
const CHANGES_CHANNEL = 'nativegtm_store';

/** The transaction-level advisory lock a commit takes its revision under (any number no other lock of ours uses). */
const REVISION_LOCK = 0x6e677463;

/**
 * How long a change's session may sit idle while it holds the revision lock: far past the few milliseconds its last
 * statements take, far below what a deploy waits for before it gives up.
 */
const STALLED_COMMIT_MS = 5000;

/** How old files no release names must be before prune removes them: a publish may be uploading them now. */
const ORPHAN_AGE_MS = 60 * 60_000;

/** How many times a publish uploads a release whose files a prune took meanwhile (./releaseObjects.js). */
const PUBLISH_ATTEMPTS = 3;

/**
 * The remote's rows at one revision.
 * @param {Client} client
 * @param {string} remote
 */
async function readRemote(client, remote) {
  const query = async (/** @type {string} */ sql) => (await client.query(sql, [remote])).rows;
  const [head] = await query('SELECT revision, live FROM remotes WHERE remote = $1');
  return {
    revision: String(head?.revision ?? 0),
    live: /** @type {string | null} */ (head?.live ?? null),
    releases: new Map(
      (await query('SELECT id, record, files FROM releases WHERE remote = $1')).map((row) => [
        row.id,
        { record: /** @type {ReleaseRecord} */ (row.record), files: /** @type {ReleaseFile[]} */ (row.files) },
      ]),
    ),
    gates: new Map(
      (await query('SELECT id, result FROM gates WHERE remote = $1')).map((row) => [
        row.id,
        /** @type {GateResult} */ (row.result),
      ]),
    ),
    history: (await query('SELECT change FROM live_changes WHERE remote = $1 ORDER BY seq')).map((row) => row.change),
    canary: /** @type {unknown} */ ((await query('SELECT state FROM canaries WHERE remote = $1'))[0]?.state),
    // The lease's last renewal (../canaryLease.js): what a change reads of it, a node does not copy.
    renewal: await readRenewal(client, remote),
    ended: (await query('SELECT ended FROM ended_canaries WHERE remote = $1 ORDER BY seq')).map((row) => row.ended),
    marks: (await query('SELECT id, mark FROM preview_marks WHERE remote = $1')).map((row) => ({
      id: /** @type {string} */ (row.id),
      mark: /** @type {string} */ (row.mark),
    })),
  };
}

/**
 * The last renewal of the remote's canary's lease, as stored (none: undefined).
 * @param {Client} client
 * @param {string} remote
 * @returns {Promise<unknown>}
 */
async function readRenewal(client, remote) {
  return (await client.query('SELECT renewal FROM canary_leases WHERE remote = $1', [remote])).rows[0]?.renewal;
}

/**
 * The running canary as a change sees it: the state, with its lease as last renewed.
 * @param {unknown} canary the canaries row's state
 * @param {unknown} renewal
 * @returns {{ canary?: import('../canaryInStore').CanaryState, problem?: string }}
 */
function canaryOf(canary, renewal) {
  if (canary === undefined) return {};
  const problem = canaryStateProblem(canary);
  return problem
    ? { problem: `the canary's state has ${problem}` }
    : { canary: withRenewal(/** @type {any} */ (canary), renewal) };
}

/** @typedef {Awaited<ReturnType<typeof readRemote>>} RemoteRows */
/** @typedef {(client: Client) => Promise<unknown>} Write */
/** @typedef {ReturnType<typeof databaseState>} DatabaseState */
/**
 * The backend, whose changes may also record a release whole (a publish, a copy) and set the live release alone.
 * @typedef {Omit<StoreBackend, 'change' | 'read'> & {
 *   change: <T>(label: string, work: (state: DatabaseState) => Promise<T>) => Promise<T>,
 *   read: <T>(read: (state: DatabaseState) => T) => Promise<T>,
 *   objects: import('./objectStore').ObjectStore }} PostgresBackend
 */

/**
 * The remote's rows as a change sees them: reads of `rows` with the change's own writes, which are kept in `writes`
 * to be made at commit, the locks to take before the remote's row in `locks`, and the files to remove once it
 * committed in `after`.
 * @param {RemoteRows} rows
 * @param {string} remote
 * @param {{ writes: Write[], locks?: Write[], after: (() => Promise<void>)[], orphanAgeMs: number,
 *   database: import('./database').Database, objects: import('./objectStore').ObjectStore,
 *   read?: { canary: boolean } }} pending read.canary: set once the change read the canary (and so its lease)
 * @returns {RemoteState & { addRelease: (record: ReleaseRecord, files: ReleaseFile[]) => void,
 *   setLive: (id: string) => void }}
 */
function databaseState(
  rows,
  remote,
  { writes, locks = [], after, orphanAgeMs, database, objects, read = { canary: false } },
) {
  /** @type {Set<string>} */
  const removed = new Set();
  /** @param {string} sql @param {unknown[]} values */
  const write = (sql, values) => writes.push((client) => client.query(sql, [remote, ...values]));
  return {
    record: (id) => rows.releases.get(id)?.record,
    releases: () =>
      [...rows.releases.values()]
        .map((release) => release.record)
        .sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id)),
    gate: (id) => rows.gates.get(id),
    history: () => rows.history.filter(isLiveChange),
    pointer: () => {
      if (rows.live === null) return {};
      if (!rows.releases.has(rows.live)) return { problem: `the live release ${rows.live} is not recorded` };
      return { id: rows.live };
    },
    canary: () => {
      read.canary = true;
      return canaryOf(rows.canary, rows.renewal);
    },
    endedCanaries: () => rows.ended.filter(isEndedCanary),
    // Its files were checked before they went up, and each node checks each file it downloads. A release recorded
    // before records held the integrity of its files cannot be loaded by any browser (@nativegtm/contract/integrity).
    unusable: (id) => (rows.releases.get(id)?.record.integrity ? undefined : NO_INTEGRITY),
    writeGate: (id, result) => {
      rows.gates.set(id, result);
      write(
        'INSERT INTO gates (remote, id, result) VALUES ($1, $2, $3) ON CONFLICT (remote, id) DO UPDATE SET result = $3',
        [id, JSON.stringify(result)],
      );
    },
    changeLive: (change) => {
      rows.history.push(change);
      rows.live = change.id;
      write('INSERT INTO live_changes (remote, change) VALUES ($1, $2)', [JSON.stringify(change)]);
      write('UPDATE remotes SET live = $2 WHERE remote = $1', [change.id]);
    },
    setLive: (id) => {
      rows.live = id;
      write('UPDATE remotes SET live = $2 WHERE remote = $1', [id]);
    },
    writeCanary: (state) => {
      // Writing the canary drops the renewal: as much a read of the lease as canary().
      read.canary = true;
      const problem = canaryStateProblem(state);
      if (problem) throw new Error(`Not a canary state: ${problem}.`);
      rows.canary = state;
      rows.renewal = undefined;
      write('INSERT INTO canaries (remote, state) VALUES ($1, $2) ON CONFLICT (remote) DO UPDATE SET state = $2', [
        JSON.stringify(state),
      ]);
      write('DELETE FROM canary_leases WHERE remote = $1', []);
    },
    endCanary: () => {
      read.canary = true;
      rows.canary = undefined;
      rows.renewal = undefined;
      write('DELETE FROM canaries WHERE remote = $1', []);
      write('DELETE FROM canary_leases WHERE remote = $1', []);
    },
    recordEnd: (ended) => {
      rows.ended.push(ended);
      write('INSERT INTO ended_canaries (remote, ended) VALUES ($1, $2)', [JSON.stringify(ended)]);
    },
    addPreviewMark: (id, mark) => {
      rows.marks.push({ id, mark });
      write('INSERT INTO preview_marks (remote, id, mark) VALUES ($1, $2, $3)', [id, mark]);
    },
    addRelease: (record, files) => {
      rows.releases.set(record.id, { record, files });
      // Recorded only with every file there, under the release's lock (./releaseObjects.js), taken before the
      // remote's row: waiting for a prune's deletes of the same release holds up no other change, and no renewal.
      locks.push((client) => lockRelease(client, remote, record.id));
      writes.push((client) => checkUploaded(client, objects, remote, record.id, files));
      write('INSERT INTO releases (remote, id, record, files) VALUES ($1, $2, $3, $4)', [
        record.id,
        JSON.stringify(record),
        JSON.stringify(files),
      ]);
    },
    removeRelease: (id) => {
      rows.releases.delete(id);
      rows.gates.delete(id);
      removed.add(id);
      for (const table of ['releases', 'gates', 'preview_marks'])
        write(`DELETE FROM ${table} WHERE remote = $1 AND id = $2`, [id]);
    },
    removeUnusedFiles: (kept) => {
      const keep = new Set(kept.map((release) => release.id));
      after.push(async () => {
        const now = Date.now();
        /** @type {Map<string, string[]>} */
        const unused = new Map();
        for (const object of await objects.list(`${remote}/`)) {
          const id = object.name.split('/')[1] ?? '';
          const recent = object.modified !== undefined && now - object.modified.getTime() < orphanAgeMs;
          // A release removed now goes at once; files no release names only once no publish can be writing them.
          const orphan = !keep.has(id) && !rows.releases.has(id) && !recent;
          if (removed.has(id) || orphan) unused.set(id, [...(unused.get(id) ?? []), object.name]);
        }
        // Each release's only while it is still not recorded: a publish may have recorded it again since the commit.
        for (const [id, names] of unused) await removeUnrecorded(database, objects, remote, id, names);
      });
    },
  };
}

/**
 * Uploads the files of a release in `dir` (a build, or a release in a folder store); resolves to what each is, as the
 * release's row records it.
 * @param {import('./objectStore').ObjectStore} objects
 * @param {string} remote
 * @param {string} id
 * @param {string} dir
 * @returns {Promise<ReleaseFile[]>}
 */
async function uploadRelease(objects, remote, id, dir) {
  /** @type {ReleaseFile[]} */
  const files = [];
  for (const name of filesUnder(dir)) {
    const body = fs.readFileSync(path.join(dir, name));
    await objects.put(`${remote}/${id}/${name}`, body);
    files.push({ path: name, size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
  }
  return files;
}

/**
 * The refusal of a change another one beat: names the winner from the audit.
 * @param {Client} client
 * @param {string} remote
 * @param {string} label
 */
async function conflict(client, remote, label) {
  const { rows } = await client.query('SELECT action, by, at FROM audit WHERE remote = $1 ORDER BY seq DESC LIMIT 1', [
    remote,
  ]);
  const last = rows[0];
  const winner = last ? `"${last.action}" by ${last.by} at ${new Date(last.at).toISOString()}` : 'another change';
  return new StoreConflict(
    `${remote}'s releases changed while "${label}" ran: ${winner} came first. Nothing was changed.`,
  );
}

/**
 * @param {string} remote
 * @param {{ database: import('./database').Database, objects: import('./objectStore').ObjectStore,
 *   orphanAgeMs?: number, actor?: import('../actor').Actor }} options orphanAgeMs: how old files no release names
 *   must be before prune removes them; actor: who makes the changes (this process's user and host unless given)
 * @returns {PostgresBackend}
 */
function postgresBackend(remote, { database, objects, orphanAgeMs = ORPHAN_AGE_MS, actor = machineActor() }) {
  const where = `${objects.where}/${remote}`;
  /** The remote's rows at one revision. */
  const readRows = () => database.transaction((client) => readRemote(client, remote), { readOnly: true });

  /**
   * @template T
   * @param {string} label
   * @param {(state: ReturnType<typeof databaseState>) => Promise<T>} work
   * @returns {Promise<T>}
   */
  async function change(label, work) {
    const rows = await readRows();
    // As read: the change's own writes replace rows.renewal.
    const { renewal } = rows;
    /** @type {Write[]} */
    const writes = [];
    /** @type {Write[]} */
    const locks = [];
    /** @type {(() => Promise<void>)[]} */
    const after = [];
    const read = { canary: false };
    const result = await work(
      databaseState(rows, remote, { writes, locks, after, orphanAgeMs, database, objects, read }),
    );
    if (writes.length === 0 && after.length === 0) return result;
    await database.transaction(async (client) => {
      for (const lock of locks) await lock(client);
      await client.query('INSERT INTO remotes (remote) VALUES ($1) ON CONFLICT DO NOTHING', [remote]);
      const { rows: locked } = await client.query('SELECT revision FROM remotes WHERE remote = $1 FOR UPDATE', [
        remote,
      ]);
      if (String(locked[0].revision) !== rows.revision) throw await conflict(client, remote, label);
      // A renewal is no revision, but a change that read the lease (a take-over) must not commit past one. One that
      // did not (a publish, a release's gate) commits whatever the lease did meanwhile: refused, it would have to be
      // run again for nothing, and a long canary renews every few seconds.
      if (read.canary && !isDeepStrictEqual(await readRenewal(client, remote), renewal)) {
        throw new StoreConflict(`${remote}'s canary's lease was renewed while "${label}" ran. Nothing was changed.`);
      }
      for (const write of writes) await write(client);
      // Set before the lock: a write may wait on object storage for longer (./releaseObjects.js), holding only its
      // own remote's row.
      await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${STALLED_COMMIT_MS}`);
      await client.query('SELECT pg_advisory_xact_lock($1)', [REVISION_LOCK]);
      const { rows: next } = await client.query(
        "UPDATE remotes SET revision = nextval('store_revision') WHERE remote = $1 RETURNING revision",
        [remote],
      );
      const revision = String(next[0].revision);
      // At the commit (clock_timestamp), not the transaction's start (now()): the audit's times follow its revisions.
      const audit =
        'INSERT INTO audit (remote, action, by, actor, revision, at) VALUES ($1, $2, $3, $4, $5, clock_timestamp())';
      await client.query(audit, [remote, label, actor.by, actor, revision]);
      await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, revision]);
    });
    for (const step of after) await step();
    return result;
  }

  return {
    remote,
    where,
    objects,
    actor,
    change,
    audit: async () => {
      const rows = await database.transaction(
        async (client) =>
          (await client.query('SELECT at, action, by, actor FROM audit WHERE remote = $1 ORDER BY seq', [remote])).rows,
        { readOnly: true },
      );
      return rows.map((row) => ({
        at: new Date(row.at).toISOString(),
        remote,
        action: String(row.action),
        // Rows from before actors were recorded name only who.
        actor: isActor(row.actor) ? row.actor : { by: String(row.by), kind: /** @type {const} */ ('machine') },
      }));
    },
    read: async (read) => {
      const rows = await readRows();
      return read(databaseState(rows, remote, { writes: [], after: [], orphanAgeMs, database, objects }));
    },
    publish: async (buildDir, { commit, dirty }) => {
      const buildId = checkBuild(buildDir, remote);
      const integrity = checkIntegrity(buildDir);
      const check = metadataCheck(buildDir, remote);
      if (!check.ok) throw new StoreRefusal(`${buildDir} cannot be served: ${check.detail}`);
      const names = filesUnder(buildDir);
      const id = releaseId(buildDir, names);
      for (let attempt = 1; ; attempt += 1) {
        const known = await readRows();
        if (known.releases.has(id)) return { id, existed: true };
        // Every file up before the release is recorded: nothing can name a release whose files are not all there.
        const files = await uploadRelease(objects, remote, id, buildDir);
        try {
          return await change(`release ${remote} ${id}`, async (state) => {
            if (state.record(id)) return { id, existed: true };
            /** @type {ReleaseRecord} */
            const record = {
              id,
              remote,
              created: new Date().toISOString(),
              by: actor.by,
              buildId,
              commit,
              dirty,
              hashedFiles: names.filter(isHashedFile),
              integrity,
            };
            state.addRelease(record, files);
            return { id, existed: false };
          });
        } catch (error) {
          // A prune of the same release took files after they went up: up again (./releaseObjects.js).
          if (!(error instanceof ReleaseFilesGone) || attempt === PUBLISH_ATTEMPTS) throw error;
        }
      }
    },
    releaseFiles: async (id) => {
      const rows = await readRows();
      const release = rows.releases.get(id);
      if (!release) throw new StoreRefusal(`there is no release ${id} of ${remote} in ${where}`);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `nativegtm-${remote}-${id}-`));
      try {
        await downloadRelease(objects, remote, id, release.files, dir);
      } catch (error) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
      return { dir, done: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
    // Nodes learn of every change from the database (LISTEN), not from the command.
    told: async () => {},
    // Under the remote's row lock, as a change's commit: a take-over cannot commit between this check and its write.
    renewLease: async (_label, renew) => {
      await database.transaction(async (client) => {
        await client.query('SELECT 1 FROM remotes WHERE remote = $1 FOR UPDATE', [remote]);
        const { rows } = await client.query('SELECT state FROM canaries WHERE remote = $1', [remote]);
        const renewal = renew(canaryOf(rows[0]?.state, await readRenewal(client, remote)));
        await client.query(
          'INSERT INTO canary_leases (remote, renewal) VALUES ($1, $2) ON CONFLICT (remote) DO UPDATE SET renewal = $2',
          [remote, JSON.stringify(renewal)],
        );
      });
    },
  };
}

/**
 * How many of a release's files a node downloads at once. One after another, a release of this site's size (127 files)
 * took 4 to 7 s to reach a node on a busy machine, most of it waiting on each request in turn; a few at once keep the
 * link busy without opening a connection per file.
 */
const DOWNLOADS_AT_ONCE = 8;

/**
 * How long a whole release may take to download. Each GET is bounded (objectStore.js), but a bucket that trickles
 * every file would hold the store lock for the sum of their bounds: half an hour for this site's release. Five minutes
 * is this site's release many times over on a slow link.
 */
const RELEASE_DOWNLOAD_MS = 5 * 60_000;

/**
 * Downloads a release's files into `dir`, each checked against its size and sha256 as recorded: a file changed in
 * the bucket is refused, not served, and never read past one byte more than recorded. Several at once; the first
 * failure (a refusal, a GET given up) ends the downloads under way and starts no other, as does running past
 * `timeoutMs`, and it throws once each has ended, so that nothing writes into `dir` after it returns.
 * @param {import('./objectStore').ObjectStore} objects
 * @param {string} remote
 * @param {string} id
 * @param {ReleaseFile[]} files
 * @param {string} dir
 * @param {{ timeoutMs?: number }} [options] timeoutMs: RELEASE_DOWNLOAD_MS, shorter in tests
 */
async function downloadRelease(objects, remote, id, files, dir, { timeoutMs = RELEASE_DOWNLOAD_MS } = {}) {
  const root = path.resolve(dir);
  // Two entries landing on one file (a/../b beside b, or A.js beside a.js on a case-blind disk) would leave on disk
  // the bytes of whichever download finished last, checked against the other's record.
  const targets = new Set();
  for (const file of files) {
    if (!path.resolve(root, file.path).startsWith(`${root}${path.sep}`)) {
      throw new StoreRefusal(`release ${id} of ${remote} names a file outside its folder: ${file.path}`);
    }
    const target = file.path.toLowerCase();
    if (path.posix.normalize(file.path) !== file.path || targets.has(target)) {
      throw new StoreRefusal(`release ${id} of ${remote} names ${file.path} twice or in another form`);
    }
    targets.add(target);
  }
  // Ends the downloads under way at the first failure: a stalled or huge one must not keep it waiting.
  const stop = new AbortController();
  const late = new Error(`release ${id} of ${remote} took more than ${timeoutMs / 1000} s to download`);
  const timer = setTimeout(() => stop.abort(late), timeoutMs);
  /** @param {ReleaseFile} file */
  const download = async (file) => {
    // One byte more than recorded is enough to refuse an object that is larger.
    const body = await objects.get(`${remote}/${id}/${file.path}`, { maxBytes: file.size, signal: stop.signal });
    const sha256 = createHash('sha256').update(body).digest('hex');
    if (body.length !== file.size || sha256 !== file.sha256) {
      throw new StoreRefusal(`${file.path} of release ${id} of ${remote} in the bucket is not the file recorded`);
    }
    const target = path.resolve(root, file.path);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, body);
  };
  // A pool of workers over one queue, in a few lines: a limiter package would go on with the queued downloads after
  // a refusal unless told, and its promises would still each have to be settled before `dir` may be removed.
  let next = 0;
  /** @type {{ error: unknown } | undefined} */
  let failed;
  const worker = async () => {
    while (!failed && !stop.signal.aborted && next < files.length) {
      const file = /** @type {ReleaseFile} */ (files[next]);
      next += 1;
      try {
        await download(file);
      } catch (error) {
        // The first error is the one told: the others are the downloads it ended.
        failed ??= { error };
        stop.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(DOWNLOADS_AT_ONCE, files.length) }, worker));
  } finally {
    clearTimeout(timer);
  }
  if (stop.signal.reason === late) throw late;
  if (failed) throw failed.error;
}

module.exports = { postgresBackend, readRemote, uploadRelease, downloadRelease, CHANGES_CHANNEL, STALLED_COMMIT_MS };
