/** @jest-environment node */
// The release commands, in sequences fast-check draws, against a plain model of the store (testing/storeModel.js):
// each command must answer what the model says, or be refused where the model says so and for its reason, and leave
// the store as the model has it. The same sequences run on the folder and on PostgreSQL (the first of them: a run
// there costs a database). There, each change must take a store revision and nothing else one (a lease's renewal is
// no change), and a node syncing after every command must serve what the model has, and at the end of a sequence
// what the database holds. A failure prints its seed and the commands it shrank to: FUZZ_SEED=<seed> replays it;
// RUNS=<n> runs n sequences on each backend.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const fc = require('fast-check');
const { Client } = require('pg');
const S3rver = require('s3rver');
const { folderBackend } = require('./folderBackend');
const { describeReleases } = require('./operations');
const { filesUnder, releaseId } = require('./publish');
const { remoteStore } = require('./remoteStore');
const { StoreRefusal } = require('./storeRefusal');
const { openDatabase } = require('./postgres/database');
const { openObjectStore } = require('./postgres/objectStore');
const { postgresBackend } = require('./postgres/postgresBackend');
const { snapshotSyncer } = require('./postgres/snapshotSync');
const { startStoreServices } = require('./testing/storeServices');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');
const { heldByDatabase, servedByNode } = require('./testing/nodeCopy');
const { LEASE_MS, Refusal, emptyModel, rules, nextShare, commandsView, nodeView } = require('./testing/storeModel');

/** @typedef {import('./testing/storeModel').Model} Model */
/** @typedef {import('./testing/storeModel').Holder} Holder */
/** @typedef {import('./testing/storeModel').RemoteModel} RemoteModel */
/** @typedef {import('./canaryInStore').CanaryState} CanaryState */
/** @typedef {import('./storeBackend').StoreBackend} StoreBackend */
/** @typedef {import('./testing/nodeCopy').Served} Served */

jest.setTimeout(120_000);

/** Two remotes: a change of one must leave the other as it was. */
const REMOTES = ['jobs', 'candidates'];
/** Builds of each remote a release command publishes, again and again: the same files are the same release. */
const BUILDS = 3;
/** Where the model's clock starts: canaries' times are the model's, whatever the machine's clock says. */
const START = Date.parse('2030-01-01T00:00:00.000Z');
const source = { commit: 'abc', dirty: false };
/** @type {number[][]} the steps a canary goes through: two, or three */
const STEPS = [
  [50, 100],
  [5, 25, 100],
];
const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };

/**
 * One backend's store under the commands, with every hold on a canary its commands were given, by remote, start and
 * epoch (the model's Holder).
 * @typedef {{ name: string, backends: Record<string, StoreBackend>,
 *   stores: Record<string, import('./remoteStore').RemoteStore>, holds: Map<string, CanaryState>, publishedAt: number,
 *   afterCommand: (model: Model, remotes: string[], changed: boolean) => Promise<void>, close: () => Promise<void> }}
 *   Real afterCommand: what else the backend must have done after a command of the remotes given, whether the model
 *   says it changed the store or not
 */

/** @type {Awaited<ReturnType<typeof startStoreServices>>} */
let services;
/** An empty database at this version's schema, which each run's database is made from (quicker than migrating). */
let template = '';
/** @type {Client} */
let admin;
let databases = 0;
/** @type {Record<string, { dir: string, id: string }[]>} */
const builds = {};

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
  template = new URL(await services.postgres.migratedDatabase('model')).pathname.slice(1);
  admin = new Client({ connectionString: services.postgres.url });
  await admin.connect();
  for (const remote of REMOTES) {
    builds[remote] = Array.from({ length: BUILDS }, (_, at) => {
      const dir = fakeBuild({ remote, buildId: `${remote}-${at}`, chunk: `${remote}${at}.0123456789.js` });
      return { dir, id: releaseId(dir, filesUnder(dir)) };
    });
  }
});
afterAll(async () => {
  await admin?.end();
  await services?.stop();
  removeFakeBuilds();
});

/** A command's answer is not the model's. */
class Mismatch extends Error {}

/**
 * @param {Model} state
 * @param {string} remote
 */
const remoteOf = (state, remote) => /** @type {RemoteModel} */ (state.remotes[remote]);

/**
 * @param {string} remote
 * @param {Holder} holder
 */
const holdKey = (remote, holder) => `${remote} ${holder.startedAt} ${holder.epoch}`;

/**
 * A canary as the command holding it sees it, in the model's shape.
 * @param {CanaryState} canary
 */
const heldView = (canary) => ({
  id: canary.id,
  share: canary.share,
  epoch: canary.lease?.epoch,
  expiresAt: Date.parse(canary.lease?.expiresAt ?? ''),
  verdicts: canary.verdicts.length,
});

/** @param {import('./canaryChanges').EndedCanary | { problem: string }} ended */
const endedView = (ended) =>
  'problem' in ended ? ended : { id: ended.id, outcome: ended.outcome, verdicts: ended.verdicts.length };

/** @param {import('./liveHistory').LiveChange} change */
const changeView = ({ action, id, from }) => ({ action, id, from });

/**
 * A remote as a node serves it (or the database holds it), in the model's shape.
 * @param {Served} served
 */
const servedView = (served) => ({
  releases: served.releases,
  live: served.live,
  history: /** @type {import('./liveHistory').LiveChange[]} */ (served.history).map(changeView),
  canary: served.canary ? heldView(/** @type {CanaryState} */ (served.canary)) : null,
  ended: /** @type {import('./canaryChanges').EndedCanary[]} */ (served.ended).map(endedView),
});

/**
 * The remote as the release commands read it, in the model's shape.
 * @param {Real} real
 * @param {string} remote
 */
async function readView(real, remote) {
  const backend = /** @type {StoreBackend} */ (real.backends[remote]);
  const seen = await backend.read((state) => {
    const { releases } = describeReleases(state);
    const { canary } = state.canary();
    return {
      releases: releases.map((release) => release.id),
      live: state.pointer().id ?? null,
      previous: releases.find((release) => release.previous)?.id ?? null,
      history: state.history().map(changeView),
      canary: canary ? heldView(canary) : null,
      ended: state.endedCanaries().map(endedView),
    };
  });
  return { ...seen, audit: (await backend.audit()).length };
}

/**
 * @param {string} name
 * @param {Record<string, StoreBackend>} backends
 * @param {Pick<Real, 'afterCommand' | 'close'>} hooks
 * @returns {Real}
 */
function real(name, backends, hooks) {
  const stores = Object.fromEntries(
    Object.entries(backends).map(([remote, backend]) => [remote, remoteStore(backend)]),
  );
  return { name, backends, stores, holds: new Map(), publishedAt: 0, ...hooks };
}

/** @returns {Promise<Real>} */
async function folderReal() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-model-'));
  const backends = Object.fromEntries(REMOTES.map((remote) => [remote, folderBackend(dir, remote)]));
  return real('folder', backends, {
    afterCommand: async () => {},
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  });
}

/**
 * A store on a database of its own and a prefix of the bucket of its own, and a node syncing a copy of it.
 * @returns {Promise<Real>}
 */
async function postgresReal() {
  databases += 1;
  const name = `model_run_${databases}`;
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const database = openDatabase(services.postgres.url.replace(/\/postgres$/, `/${name}`), { max: 2 });
  const objects = openObjectStore(`s3://${services.storage.bucket}/${name}`);
  const node = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-model-node-'));
  const syncer = snapshotSyncer({ database, objects, dir: node });
  let revision = 0;
  const backends = Object.fromEntries(
    REMOTES.map((remote) => [remote, postgresBackend(remote, { database, objects })]),
  );
  return real('PostgreSQL', backends, {
    afterCommand: async (state, remotes, changed) => {
      // Each change takes a store revision; nothing else does (a lease's renewal is no change).
      const now = await database.transaction(
        async (client) =>
          Number((await client.query('SELECT max(revision) AS revision FROM remotes')).rows[0].revision),
        { readOnly: true },
      );
      if (changed !== now > revision) {
        throw new Mismatch(
          changed
            ? `changed the store without a store revision (still ${now})`
            : `took store revision ${now} for no change (a lease's renewal, a refusal)`,
        );
      }
      revision = now;
      await syncer.sync();
      const served = servedByNode(node);
      for (const remote of remotes) {
        expect(servedView(/** @type {Served} */ (served[remote]))).toEqual(nodeView(remoteOf(state, remote)));
      }
      // Every remote, the ones the commands left alone too.
      if (remotes.length === REMOTES.length) expect(served).toEqual(await heldByDatabase(database));
    },
    close: async () => {
      await syncer.stop();
      objects.close();
      await database.close();
      fs.rmSync(node, { recursive: true, force: true });
    },
  });
}

/**
 * What a command does in one state of the model: what the model says it must answer (or throws the Refusal it must
 * get), and the command on one backend, its answer in the model's shape.
 * @typedef {{ predict: () => unknown, act: (real: Real) => Promise<unknown> }} Plan
 */

/**
 * A command of the sequence: `plan` says what it does in a state of the model at time `at` (the model's clock moves a
 * millisecond per command), or undefined where it cannot be made (its precondition).
 * @param {string} remote the remote it changes
 * @param {string} label
 * @param {(model: Model, at: number) => Plan | undefined} plan
 * @returns {import("fast-check").AsyncCommand<Model, Real>}
 */
function storeCommand(remote, label, plan) {
  return {
    check: (state) => plan(/** @type {Model} */ (state), state.now + 1) !== undefined,
    toString: () => label,
    run: async (state, real) => {
      state.now += 1;
      const { predict, act } = /** @type {Plan} */ (plan(state, state.now));
      const { audit } = remoteOf(state, remote);
      /** @type {{ value: unknown } | { refusal: RegExp }} */
      let expected;
      try {
        expected = { value: predict() };
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        expected = { refusal: error.says };
      }
      await onBackend(real, label, async () => {
        const outcome = await act(real).then(
          (value) => ({ value }),
          (/** @type {Error} */ error) => ({ error }),
        );
        if ('refusal' in expected) {
          if ('value' in outcome) {
            throw new Mismatch(
              `answered ${JSON.stringify(outcome.value)}, where it must be refused (${expected.refusal})`,
            );
          }
          if (!(outcome.error instanceof StoreRefusal) || !expected.refusal.test(outcome.error.message)) {
            throw new Mismatch(
              `refused with "${outcome.error.message}", where the refusal must say ${expected.refusal}`,
            );
          }
        } else {
          if ('error' in outcome) throw outcome.error;
          expect(outcome.value).toEqual(expected.value);
        }
        // The remote it changed; the others at the end of the sequence.
        await matchesModel(real, state, [remote], remoteOf(state, remote).audit !== audit);
      });
    },
  };
}

/**
 * Runs `check` on one backend; a failure names the backend and the command.
 * @param {Real} real
 * @param {string} label
 * @param {() => Promise<void>} check
 */
async function onBackend(real, label, check) {
  try {
    await check();
  } catch (error) {
    // A comparison's message says it all; anything else, where it was thrown.
    const { message, stack, matcherResult } = /** @type {Error & { matcherResult?: unknown }} */ (error);
    const compared = matcherResult !== undefined || error instanceof Mismatch;
    throw new Error(`on the ${real.name} backend, ${label}: ${compared ? message : stack}`);
  }
}

/**
 * Compares the backend's store with the model, of the remotes given, and what else the backend must have done
 * (Real's afterCommand).
 * @param {Real} real
 * @param {Model} state
 * @param {string[]} remotes
 * @param {boolean} changed whether the model says the command changed the store
 */
async function matchesModel(real, state, remotes, changed) {
  for (const remote of remotes) {
    expect(await readView(real, remote)).toEqual(commandsView(remoteOf(state, remote)));
  }
  await real.afterCommand(state, remotes, changed);
}

/**
 * @param {Real} real
 * @param {string} remote
 */
const storeOf = (real, remote) => /** @type {import('./remoteStore').RemoteStore} */ (real.stores[remote]);

/**
 * @param {string} remote
 * @param {number} build
 */
const buildOf = (remote, build) => /** @type {{ dir: string, id: string }} */ (builds[remote]?.[build]);

/**
 * The hold `pick` names: 0 the newest one a command was given, 1 the one before, and so on round.
 * @param {Model} state
 * @param {string} remote
 * @param {number} pick
 */
function holderOf(state, remote, pick) {
  const { holders } = remoteOf(state, remote);
  return holders[holders.length - 1 - (pick % Math.max(holders.length, 1))];
}

/**
 * Keeps a hold a command was given, under the model's name for it; and answers it in the model's shape.
 * @param {Real} real
 * @param {string} remote
 * @param {CanaryState} canary
 */
function keep(real, remote, canary) {
  const holder = { startedAt: Date.parse(canary.startedAt), epoch: canary.lease?.epoch ?? 0 };
  real.holds.set(holdKey(remote, holder), canary);
  return heldView(canary);
}

/**
 * @param {Real} real
 * @param {string} remote
 * @param {Holder} holder
 */
const holdOf = (real, remote, holder) => /** @type {CanaryState} */ (real.holds.get(holdKey(remote, holder)));

// Mostly one remote, so that its sequences get far (a canary needs two releases, one live); now and then the other.
const remotes = fc.oneof(
  { arbitrary: fc.constant('jobs'), weight: 3 },
  { arbitrary: fc.constant('candidates'), weight: 1 },
);
const build = fc.nat({ max: BUILDS - 1 });
const pick = fc.nat({ max: 2 });

/**
 * @param {string} remote
 * @param {number} build
 */
const releaseCommand = (remote, build) =>
  storeCommand(remote, `release ${remote} build ${build}`, (state) => ({
    predict: () => rules.publish(remoteOf(state, remote), buildOf(remote, build).id),
    act: async (real) => {
      // A millisecond apart, so that the store's order of its releases (by when they were published) is the
      // model's.
      while (Date.now() <= real.publishedAt) await new Promise((resolve) => setTimeout(resolve, 1));
      const published = await storeOf(real, remote).publish(buildOf(remote, build).dir, source);
      real.publishedAt = Date.now();
      return published;
    },
  }));

const release = fc.record({ remote: remotes, build }).map(({ remote, build }) => releaseCommand(remote, build));

/**
 * What a promote or a canary is of: a build of the pool (perhaps not published, or pruned), or more often one of the
 * remote's releases that is not live, by its place (oldest first), when there is one.
 * @typedef {{ build: number } | { notLive: number }} Target
 */
const target = fc.oneof(
  { arbitrary: build.map((at) => /** @type {Target} */ ({ build: at })), weight: 1 },
  { arbitrary: pick.map((at) => /** @type {Target} */ ({ notLive: at })), weight: 2 },
);

/** @param {Target} of */
const targetName = (of) => ('build' in of ? `build ${of.build}` : `release #${of.notLive} not live`);

/**
 * The release id a target names; undefined where the remote has no release for it to name.
 * @param {Model} state
 * @param {string} remote
 * @param {Target} of
 */
function targetId(state, remote, of) {
  if ('build' in of) return buildOf(remote, of.build).id;
  const { releases, live } = remoteOf(state, remote);
  const others = releases.filter((id) => id !== live.at(-1));
  return others[of.notLive % Math.max(others.length, 1)];
}

/**
 * @param {string} remote
 * @param {Target} of
 */
const promoteCommand = (remote, of) =>
  storeCommand(remote, `promote ${remote} ${targetName(of)}`, (state) => {
    const id = targetId(state, remote, of);
    if (!id) return undefined;
    return {
      predict: () => rules.promote(remoteOf(state, remote), id),
      act: async (real) => {
        const { changed, from } = await storeOf(real, remote).promote(id, { gate: null });
        return { changed, from };
      },
    };
  });

const promote = fc.record({ remote: remotes, of: target }).map(({ remote, of }) => promoteCommand(remote, of));

const rollback = remotes.map((remote) =>
  storeCommand(remote, `rollback ${remote}`, (state) => ({
    predict: () => rules.rollback(remoteOf(state, remote)),
    act: (real) => storeOf(real, remote).rollback(),
  })),
);

const prune = fc.record({ remote: remotes, keep: fc.nat({ max: 2 }) }).map(({ remote, keep }) =>
  storeCommand(remote, `prune ${remote} --keep ${keep}`, (state) => ({
    predict: () => rules.prune(remoteOf(state, remote), keep),
    act: (real) => storeOf(real, remote).prune({ keep }),
  })),
);

const startCanary = fc
  .record({ remote: remotes, of: target, steps: fc.constantFrom(...STEPS) })
  .map(({ remote, of, steps }) =>
    storeCommand(remote, `canary ${remote} ${targetName(of)} --steps ${steps}`, (state, at) => {
      const id = targetId(state, remote, of);
      if (!id) return undefined;
      return {
        predict: () => rules.startCanary(remoteOf(state, remote), id, steps, at),
        act: async (real) => {
          const options = { steps, settings, gate: null, now: () => at, leaseTtlMs: LEASE_MS };
          return keep(real, remote, await storeOf(real, remote).startCanary(id, options));
        },
      };
    }),
  );

const stepCanary = fc.record({ remote: remotes, pick }).map(({ remote, pick }) =>
  storeCommand(remote, `canary ${remote} next step, as hold ${pick}`, (state, at) => {
    const holder = holderOf(state, remote, pick);
    if (!holder) return undefined;
    const { canary } = remoteOf(state, remote);
    const share = nextShare(remoteOf(state, remote), holder);
    // A command holding a canary at its last step ends it rather than step on.
    if (share === undefined && canary?.startedAt === holder.startedAt && canary.epoch === holder.epoch) {
      return undefined;
    }
    const passed = /** @type {const} */ ({
      share: 0,
      verdict: 'pass',
      reason: 'passed',
      at: new Date(at).toISOString(),
    });
    return {
      predict: () => rules.advanceCanary(remoteOf(state, remote), holder, at),
      act: async (real) => {
        const mine = holdOf(real, remote, holder);
        return keep(real, remote, await storeOf(real, remote).advanceCanary(mine, passed, share ?? 100, at));
      },
    };
  }),
);

const finishCanary = fc
  .record({ remote: remotes, pick, outcome: fc.constantFrom('promoted', 'rolled back', 'no verdict') })
  .map(({ remote, pick, outcome }) =>
    storeCommand(remote, `canary ${remote} ${outcome}, as hold ${pick}`, (state, at) => {
      const holder = holderOf(state, remote, pick);
      if (!holder) return undefined;
      return {
        predict: () => rules.finishCanary(remoteOf(state, remote), holder, outcome),
        act: async (real) =>
          endedView(
            await storeOf(real, remote).finishCanary(holdOf(real, remote, holder), {
              outcome,
              reason: 'the model ended it',
              last: undefined,
              at,
            }),
          ),
      };
    }),
  );

const abortCanary = remotes.map((remote) =>
  storeCommand(remote, `canary ${remote} --abort`, (state, at) => ({
    predict: () => rules.abortCanary(remoteOf(state, remote)),
    act: async (real) => endedView(await storeOf(real, remote).abortCanary({ now: () => at })),
  })),
);

const renewLease = fc.record({ remote: remotes, pick }).map(({ remote, pick }) =>
  storeCommand(remote, `canary ${remote} renews its lease, as hold ${pick}`, (state, at) => {
    const holder = holderOf(state, remote, pick);
    if (!holder) return undefined;
    return {
      predict: () => rules.renewLease(remoteOf(state, remote), holder, at),
      act: async (real) => keep(real, remote, await storeOf(real, remote).renewLease(holdOf(real, remote, holder), at)),
    };
  }),
);

// Tried while a canary runs (whether its lease ran out is the model's to say); an abort tries one that does not.
const takeOver = remotes.map((remote) =>
  storeCommand(remote, `canary ${remote} --resume (another command)`, (state, at) =>
    remoteOf(state, remote).canary
      ? {
          predict: () => rules.takeOverCanary(remoteOf(state, remote), at),
          act: async (real) => keep(real, remote, await storeOf(real, remote).takeOverCanary({ now: () => at })),
        }
      : undefined,
  ),
);

const wait = fc.integer({ min: 100, max: 2000 }).map(
  (ms) =>
    /** @type {import("fast-check").AsyncCommand<Model, Real>} */ ({
      check: () => true,
      toString: () => `wait ${ms} ms`,
      run: async (state) => {
        state.now += ms;
      },
    }),
);

/**
 * The commands, each as often as its weight: the ones that need others first (a canary, a release live) come more
 * often, so that sequences of a few commands get to them.
 * @type {[import('fast-check').Arbitrary<import('fast-check').AsyncCommand<Model, Real>>, number][]}
 */
const weighted = [
  [release, 1],
  [promote, 2],
  [rollback, 2],
  [prune, 1],
  [startCanary, 3],
  [stepCanary, 2],
  [finishCanary, 1],
  [abortCanary, 1],
  [renewLease, 2],
  [takeOver, 2],
  [wait, 3],
];
const commands = weighted.flatMap(([command, weight]) => Array.from({ length: weight }, () => command));

const EMPTY = 'an empty store';
const TWO_LIVE = 'jobs with build 1 live, build 0 before it';
/**
 * The commands a run starts with: none, or what takes a remote to where a canary can start, so that sequences of a
 * few commands get to canaries.
 * @type {Record<string, import('fast-check').AsyncCommand<Model, Real>[]>}
 */
const startFrom = {
  [EMPTY]: [],
  [TWO_LIVE]: [
    releaseCommand('jobs', 0),
    releaseCommand('jobs', 1),
    promoteCommand('jobs', { build: 0 }),
    promoteCommand('jobs', { build: 1 }),
  ],
};
const starts = fc.oneof({ arbitrary: fc.constant(EMPTY), weight: 1 }, { arbitrary: fc.constant(TWO_LIVE), weight: 3 });

/**
 * One seed for both backends, so that they run the same sequences (PostgreSQL the first of the folder's): the fixed
 * one (../build/fuzzSeed.js), or under FUZZ_SEED=random one drawn here, which a failure prints.
 */
const seed = fc.readConfigureGlobal().seed ?? Math.floor(Math.random() * 0x7fffffff);

describe.each([
  { backend: 'folder', open: folderReal, runs: 50 },
  { backend: 'PostgreSQL', open: postgresReal, runs: 20 },
])('the store on the $backend backend', ({ open, runs }) => {
  it('answers each command as the model does, and changes the store as the model changes', async () => {
    await fc.assert(
      fc.asyncProperty(starts, fc.commands(commands, { maxCommands: 25, size: 'max' }), async (start, sequence) => {
        const real = await open();
        const state = emptyModel(REMOTES, START);
        try {
          await fc.asyncModelRun(() => ({ model: state, real }), [...(startFrom[start] ?? []), ...sequence]);
          await onBackend(real, 'at the end', () => matchesModel(real, state, REMOTES, false));
        } finally {
          await real.close();
        }
      }),
      { seed, numRuns: Number(process.env.RUNS ?? runs) },
    );
  });
});
