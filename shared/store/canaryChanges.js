// What the canary command does to a remote's store, on any backend (storeBackend.js), each one change, so that it
// never interleaves with a promote, a rollback, an abort or another canary: start one (after the gate), move it to its
// next share, end it (promoted, rolled back, without a verdict, aborted) and take over one whose command died. The
// state itself is canaryInStore.js on a folder, which both servers read.
//
// The command running a canary holds a lease (CanaryLease): each of its changes checks, in the change, that no other
// command took the canary over (the lease's epoch), and renews it; between changes it renews it alone, which is no
// change of the store (canaryLease.js). Another command takes it over only once the lease
// ran out (or, on the same machine, once its process is gone); then the first one's next change is refused and it
// stops, whatever it was doing meanwhile (stopped, swapped out, cut off). The lease runs out by the clock of the
// machine that looks at it: machines sharing a store must keep their clocks in step (NTP), to well within the
// lease's time.
const os = require('node:os');
const { processSpace, thisCommand } = require('./canaryInStore');
const { LEASE_TTL_BOUNDS, LEASE_TTL_MS, leaseEnd, leaseTtlProblem } = require('./canaryLease');
const {
  ReleaseError,
  gateFailed,
  gateRelease,
  liveAndPrevious,
  changeUnlessCanary,
  usableRelease,
} = require('./operations');
const { STALE_MS, StoreBusyError } = require('./storeLock');
const { StoreConflict } = require('./storeRefusal');

/** @typedef {import('./storeBackend').StoreBackend} StoreBackend */
/** @typedef {import('./storeBackend').RemoteState} RemoteState */
/** @typedef {import('./canaryInStore').CanaryState} CanaryState */
/** @typedef {import('./canaryInStore').StepRecord} StepRecord */
/** @typedef {import('./operations').Gate} Gate */

/**
 * How a canary ended.
 * @typedef {'promoted' | 'rolled back' | 'no verdict' | 'aborted'} Outcome
 * @typedef {{ id: string, startedAt: string, endedAt: string, outcome: Outcome, reason: string, steps: number[],
 *   verdicts: StepRecord[], by?: string }} EndedCanary
 *   by: who ended it (actor.js): the command that ran it, or the one that aborted it
 */

/** The shares a canary goes through unless told: 100 is the promote. */
const DEFAULT_STEPS = [5, 25, 50, 100];

/** A canary was ended under the command's feet (aborted, or taken over by a resume): it stops, changing nothing. */
class CanaryGone extends ReleaseError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CanaryGone';
  }
}

/**
 * Whether the command a canary's state names still runs: known only on its own machine, in its own space of pids (a
 * container with the host name of another has pids of its own; a state that names no space could be any container's).
 * @param {CanaryState['command']} command
 * @returns {boolean | undefined} undefined: it runs on another machine, or in another container
 */
function commandAlive(command) {
  if (command.host !== os.hostname() || command.space !== processSpace()) return undefined;
  try {
    process.kill(command.pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has the pid; it is alive, if perhaps not ours.
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Whether another process may take the canary over at `at`: its lease ran out, or its command is gone from this
 * machine. The one rule of a resume and of a deploy API carrying on a canary another API drove.
 * @param {CanaryState} canary
 * @param {number} at ms since 1970
 */
const takeOverable = (canary, at) => at >= leaseEnd(leaseOf(canary), at) || commandAlive(canary.command) === false;

/**
 * The mark of a canary a deploy API drives, as the actor of the backend's changes; none for a command.
 * @param {StoreBackend} backend
 * @param {boolean} byApi
 * @returns {Pick<CanaryState, 'api'>}
 */
const apiMark = (backend, byApi) => (byApi ? { api: { actor: backend.actor } } : {});

/**
 * The running canary, or a refusal naming what to do instead.
 * @param {RemoteState} state
 * @param {string} remote
 */
function runningOrRefuse(state, remote) {
  const { canary, problem } = state.canary();
  if (problem) throw new ReleaseError(`${remote}'s canary cannot be read: ${problem}`);
  if (!canary) throw new ReleaseError(`no canary of ${remote} is running`);
  return canary;
}

/**
 * Gates the release, then starts its canary at the first step's share.
 * @param {StoreBackend} backend
 * @param {string} id
 * @param {{ steps: number[], settings: CanaryState['settings'], gate: Gate | null, now: () => number,
 *   leaseTtlMs?: number, byApi?: boolean }} options byApi: a deploy API drives it (CanaryState's api)
 * @returns {Promise<CanaryState>}
 */
async function startCanary(backend, id, { steps, settings, gate, now, leaseTtlMs = LEASE_TTL_MS, byApi = false }) {
  const { remote } = backend;
  const tooLong = leaseTtlProblem(leaseTtlMs);
  if (tooLong) throw new ReleaseError(`no canary started: ${tooLong}`);
  const started = await changeUnlessCanary(backend, `canary ${remote} ${id}`, 'second canary', async (state) => {
    usableRelease(state, backend, id);
    const { live } = liveAndPrevious(state);
    if (!live) throw new ReleaseError(`no release of ${remote} is live: there is nothing to compare a canary with`);
    if (live === id) throw new ReleaseError(`release ${id} of ${remote} is already live`);
    const result = await gateRelease(state, backend, id, gate, new Date(now()).toISOString());
    if (!result.passed) return { failed: result };
    const at = new Date(now()).toISOString();
    /** @type {CanaryState} */
    const canary = {
      v: 1,
      id,
      share: /** @type {number} */ (steps[0]),
      steps,
      startedAt: at,
      stepStartedAt: at,
      settings,
      verdicts: [],
      command: thisCommand(),
      lease: { epoch: 1, ttlMs: leaseTtlMs, expiresAt: new Date(now() + leaseTtlMs).toISOString() },
      ...apiMark(backend, byApi),
    };
    state.writeCanary(canary);
    return canary;
  });
  // The gate's result is recorded, failed or not.
  if ('failed' in started) throw gateFailed(remote, id, started.failed, 'no canary started');
  return started;
}

/**
 * Ends a canary just started, before anyone was judged on it (what serves the store could not be told of it):
 * nothing is recorded.
 * @param {StoreBackend} backend
 * @param {string} id
 */
function withdrawCanary(backend, id) {
  return backend.change(`canary ${backend.remote} ${id}`, async (state) => state.endCanary());
}

/**
 * The lease a state holds; a state written before leases holds one that ran out.
 * @param {CanaryState} state
 * @returns {import('./canaryInStore').CanaryLease}
 */
const leaseOf = (state) => {
  const lease = state.lease ?? { epoch: 0, ttlMs: LEASE_TTL_MS, expiresAt: state.stepStartedAt };
  // A length out of bounds (a state written before they were checked, or by hand) counts as the nearest bound: a zero
  // one would make the command a busy loop, a huge one a canary no one can take over.
  const { minMs, maxMs } = LEASE_TTL_BOUNDS;
  return { ...lease, ttlMs: Math.min(Math.max(lease.ttlMs, minMs), maxMs) };
};

/**
 * The state with its lease renewed from `at`.
 * @param {CanaryState} state
 * @param {number} at ms since 1970
 * @returns {CanaryState}
 */
function renewed(state, at) {
  const lease = leaseOf(state);
  return {
    ...state,
    lease: { ...lease, epoch: Math.max(lease.epoch, 1), expiresAt: new Date(at + lease.ttlMs).toISOString() },
  };
}

/**
 * Whether the store's state is the canary `mine` runs, under the lease `mine` holds: the same canary, not taken over.
 * @param {CanaryState} current
 * @param {CanaryState} mine
 */
const sameHolder = (current, mine) =>
  current.id === mine.id &&
  current.startedAt === mine.startedAt &&
  leaseOf(current).epoch === leaseOf(mine).epoch &&
  current.command.host === mine.command.host &&
  current.command.pid === mine.command.pid &&
  current.command.space === mine.command.space;

/**
 * How long a change of the command's own canary is tried again while another command holds the store (a promote or a
 * rollback that is about to be refused, a status, an abort) or committed first: moments, each. A lease renewal that
 * gave up at once would end the command over another's refused promote; 5 s is well within the lease's 10 s of slack.
 */
const MINE_WAIT_MS = 5000;

/**
 * Changes the canary the command runs, once it has checked, in the change, that the canary is still the one it runs
 * and that its lease was not taken over; the change renews the lease. Another change committed meanwhile (an abort,
 * a take-over) makes it look again, and so refuse; another command holding the store makes it wait its turn.
 * @template T
 * @param {StoreBackend} backend
 * @param {CanaryState} mine the state as the command last wrote it
 * @param {string} what the change, as the audit names it after the canary (`renew`, `at 50 %`, `promoted`)
 * @param {(current: CanaryState, state: RemoteState) => T} change
 * @returns {Promise<T>}
 */
async function changeMine(backend, mine, what, change) {
  return whileBusy(MINE_WAIT_MS, 20, () =>
    backend.change(`canary ${backend.remote} ${mine.id} ${what}`, async (state) =>
      change(stillMine(state.canary().canary, mine), state),
    ),
  );
}

/**
 * The store's canary when it is still the one `mine` runs, under its lease; otherwise the refusal that ends the
 * command.
 * @param {CanaryState | undefined} canary
 * @param {CanaryState} mine
 */
function stillMine(canary, mine) {
  if (!canary || canary.id !== mine.id || canary.startedAt !== mine.startedAt) {
    throw new CanaryGone(`the canary of release ${mine.id} was ended by another command (npm run releases says how)`);
  }
  if (!sameHolder(canary, mine)) {
    const { host, pid } = canary.command;
    throw new CanaryGone(`the canary of release ${mine.id} was taken over by pid ${pid} on ${host}`);
  }
  return canary;
}

/**
 * Runs `change` again while another command holds the store, or committed a change first, for up to `forMs`; never
 * once the lock was lost while it ran: the change may have been made, and a step must not count twice.
 * @template T
 * @param {number} forMs
 * @param {number} everyMs
 * @param {() => Promise<T>} change
 * @returns {Promise<T>}
 */
async function whileBusy(forMs, everyMs, change) {
  const until = Date.now() + forMs;
  for (;;) {
    try {
      return await change();
    } catch (error) {
      const busy = (error instanceof StoreBusyError && !error.lost) || error instanceof StoreConflict;
      if (!busy || Date.now() >= until) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

/**
 * Renews the command's lease on its canary (refused, as a change is, once another command took it over or ended it).
 * No change of the store: what servers read stays as it is (canaryLease.js).
 * @param {StoreBackend} backend
 * @param {CanaryState} mine
 * @param {number} at ms since 1970
 * @returns {Promise<CanaryState>}
 */
async function renewLease(backend, mine, at) {
  /** @type {CanaryState | undefined} */
  let result;
  await whileBusy(MINE_WAIT_MS, 20, () =>
    backend.renewLease(`canary ${backend.remote} ${mine.id} renew`, ({ canary }) => {
      const current = stillMine(canary, mine);
      result = renewed(current, at);
      const { epoch, expiresAt } = leaseOf(result);
      return { id: current.id, startedAt: current.startedAt, epoch, expiresAt };
    }),
  );
  return /** @type {CanaryState} */ (result);
}

/**
 * When the command should renew its lease: a third of the way in, so that two looks can be missed.
 * @param {CanaryState} mine
 */
function renewalDue(mine) {
  const lease = leaseOf(mine);
  return Date.parse(lease.expiresAt) - (lease.ttlMs * 2) / 3;
}

/**
 * Moves a canary whose step passed to its next share.
 * @param {StoreBackend} backend
 * @param {CanaryState} mine
 * @param {StepRecord} passed
 * @param {number} share
 * @param {number} at ms since 1970
 * @returns {Promise<CanaryState>}
 */
function advanceCanary(backend, mine, passed, share, at) {
  return changeMine(backend, mine, `at ${share} %`, (current, state) => {
    const changed = {
      ...renewed(current, at),
      share,
      stepStartedAt: new Date(at).toISOString(),
      verdicts: [...current.verdicts, passed],
    };
    state.writeCanary(changed);
    return changed;
  });
}

/**
 * How the canary ended, as the canary history records it.
 * @param {CanaryState} state
 * @param {Outcome} outcome
 * @param {string} reason
 * @param {StepRecord[]} verdicts
 * @param {number} at
 * @param {string} by who ended it
 * @returns {EndedCanary}
 */
const endOf = (state, outcome, reason, verdicts, at, by) => ({
  id: state.id,
  startedAt: state.startedAt,
  endedAt: new Date(at).toISOString(),
  outcome,
  reason,
  steps: state.steps,
  verdicts,
  by,
});

/**
 * Ends the canary the command runs: promoted (the release is made live first, so that its visitors never go back to
 * the old one for a moment), or rolled back / without a verdict (everyone goes back to live at once).
 * @param {StoreBackend} backend
 * @param {CanaryState} mine
 * @param {{ outcome: Exclude<Outcome, 'aborted'>, reason: string, last: StepRecord | undefined, at: number }} end
 * @returns {Promise<EndedCanary>}
 */
function finishCanary(backend, mine, { outcome, reason, last, at }) {
  return changeMine(backend, mine, outcome, (current, state) => {
    const verdicts = last ? [...current.verdicts, last] : current.verdicts;
    const record = endOf(current, outcome, reason, verdicts, at, backend.actor.by);
    // The end recorded first: should the promote fail (a full disk), the change is undone and the canary still
    // runs, as the store had it.
    state.recordEnd(record);
    if (outcome === 'promoted') {
      const { live } = liveAndPrevious(state);
      const change = { at: new Date(at).toISOString(), action: /** @type {const} */ ('promote'), id: current.id };
      state.changeLive({ ...change, from: live ?? null, by: backend.actor.by });
    }
    state.endCanary();
    return record;
  });
}

/**
 * How long an abort waits for the command running the canary to let go of the store. A live command holds it for
 * moments (on a loaded machine a renewal's lock and fsync can pass 800 ms), but one killed inside a change leaves the
 * lock until it is stale (STALE_MS): an operator who kills a stuck command and then aborts its canary, the emergency
 * lever, must not be refused for that, so the abort waits it out as --resume does.
 */
const ABORT_WAIT_MS = STALE_MS + 5000;

/**
 * Puts everyone on live now, whatever the command running the canary is doing: it finds its canary gone at its next
 * change, and stops.
 * @param {StoreBackend} backend
 * @param {{ now: () => number }} options
 * @returns {Promise<EndedCanary | { problem: string }>} the canary ended, or what was wrong with a state that was not one
 */
async function abortCanary(backend, { now }) {
  const { remote } = backend;
  await backend.read((state) => abortable(state, remote));
  return whileBusy(ABORT_WAIT_MS, 20, () =>
    backend.change(`canary ${remote} --abort`, async (state) => {
      const { canary, problem } = abortable(state, remote);
      // Ended first, whatever the store can still take: an abort is what puts everyone back on live.
      state.endCanary();
      // A state that cannot be read is ended too (servers already put no one in it): there is nothing to record.
      if (!canary) return { problem: /** @type {string} */ (problem) };
      const ended = endOf(canary, 'aborted', 'aborted by an operator', canary.verdicts, now(), backend.actor.by);
      try {
        state.recordEnd(ended);
      } catch (error) {
        throw new ReleaseError(
          `${remote}'s canary is ended (everyone is on live), but its end could not be recorded in ` +
            `${backend.where}: ${/** @type {Error} */ (error).message}`,
        );
      }
      return ended;
    }),
  );
}

/**
 * The canary an abort ends: one that runs, or a state that cannot be read; a refusal when there is neither.
 * @param {RemoteState} state
 * @param {string} remote
 */
function abortable(state, remote) {
  const read = state.canary();
  if (!read.canary && !read.problem) throw new ReleaseError(`no canary of ${remote} is running`);
  return read;
}

/**
 * Makes this process the one running a canary whose command's lease ran out (or whose process is gone, on this
 * machine), keeping its share and its step's start: a new lease, whose epoch refuses every later change of the other.
 * A deploy API taking it over marks it as its own (byApi); a command taking it over clears that mark, so that no API
 * takes it from the operator once the command stops. carryOn: a deploy API carrying on, by itself, a canary another
 * deploy API drove; refused for a canary a command runs.
 * @param {StoreBackend} backend
 * @param {{ now?: () => number, byApi?: boolean, carryOn?: boolean }} [options]
 * @returns {Promise<CanaryState>}
 */
async function takeOverCanary(backend, { now = Date.now, byApi = false, carryOn = false } = {}) {
  const { remote } = backend;
  await backend.read((state) => runningOrRefuse(state, remote));
  // A command killed inside a change leaves the store's lock until it is stale (STALE_MS): the resume that follows it
  // waits for that, rather than being refused as busy.
  return whileBusy(STALE_MS + 5000, 100, () => takeOver(backend, remote, now, byApi || carryOn, carryOn));
}

/**
 * The take-over's one change.
 * @param {StoreBackend} backend
 * @param {string} remote
 * @param {() => number} now
 * @param {boolean} byApi
 * @param {boolean} carryOn
 * @returns {Promise<CanaryState>}
 */
function takeOver(backend, remote, now, byApi, carryOn) {
  const change = carryOn ? `canary ${remote} carried on by the deploy API` : `canary ${remote} --resume`;
  return backend.change(change, async (state) => {
    const canary = runningOrRefuse(state, remote);
    // Read again in the change: a command may have taken it over since the API looked.
    if (carryOn && !canary.api) throw new ReleaseError(`${remote}'s canary is run by a command: it is left to it`);
    const lease = leaseOf(canary);
    const at = now();
    if (!takeOverable(canary, at)) {
      const { host, pid } = canary.command;
      throw new ReleaseError(
        `the command running ${remote}'s canary is alive (pid ${pid} on ${host}; its lease runs until ` +
          `${lease.expiresAt}): nothing to resume`,
      );
    }
    /** @type {CanaryState} */
    const taken = { ...canary, command: thisCommand(), lease: { ...lease, epoch: lease.epoch + 1 } };
    delete taken.api;
    const next = renewed({ ...taken, ...apiMark(backend, byApi) }, at);
    state.writeCanary(next);
    return next;
  });
}

/**
 * Whether a line of the canary history is an ended canary as this version writes it (anything else, a hand edit, is
 * skipped as a torn line is).
 * @param {any} ended
 * @returns {ended is EndedCanary}
 */
const isEndedCanary = (ended) =>
  ['id', 'startedAt', 'endedAt', 'outcome', 'reason'].every((key) => typeof ended?.[key] === 'string') &&
  Array.isArray(ended.steps) &&
  Array.isArray(ended.verdicts);

module.exports = {
  DEFAULT_STEPS,
  leaseOf,
  renewalDue,
  renewLease,
  sameHolder,
  CanaryGone,
  commandAlive,
  takeOverable,
  isEndedCanary,
  startCanary,
  withdrawCanary,
  advanceCanary,
  finishCanary,
  abortCanary,
  takeOverCanary,
};
