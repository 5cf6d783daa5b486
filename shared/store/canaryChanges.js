// What the canary command does to a remote's store, each change under the store's lock (storeLock.js), so that it
// never interleaves with a promote, a rollback, an abort or another canary: start one (after the gate), move it to its
// next share, end it (promoted, rolled back, without a verdict, aborted) and take over one whose command died. The
// state itself is canaryInStore.js, which both servers read; telling nginx is the command's (@nativegtm/tools).
//
// The command running a canary holds a lease (CanaryLease): each of its changes checks, under the lock, that no other
// command took the canary over (the lease's epoch), and renews it. Another command takes it over only once the lease
// ran out (or, on the same machine, once its process is gone); then the first one's next change is refused and it
// stops, whatever it was doing meanwhile (stopped, swapped out, cut off). The lease runs out by the clock of the
// machine that looks at it: machines sharing a store folder must keep their clocks in step (NTP), to well within the
// lease's time.
const os = require('node:os');
const { readJsonLines, liveAndPrevious } = require('./liveHistory');
const { appendLinesDurably } = require('./durableFiles');
const { endCanary, readCanary, thisCommand, writeCanary } = require('./canaryInStore');
const { ReleaseError, changeLive, ensureWritable, refuseWhileCanary, usableRelease } = require('./operations');
const { writeGate } = require('./records');
const { StoreBusyError, withStoreLock } = require('./storeLock');
const { thisActor } = require('./actor');

/** @typedef {import('@nativegtm/store/layout').StoreLayout} StoreLayout */
/** @typedef {import('@nativegtm/store/canaryInStore').CanaryState} CanaryState */
/** @typedef {import('@nativegtm/store/canaryInStore').StepRecord} StepRecord */
/** @typedef {import('@nativegtm/store/records').GateResult} GateResult */

/**
 * How a canary ended.
 * @typedef {'promoted' | 'rolled back' | 'no verdict' | 'aborted'} Outcome
 * @typedef {{ id: string, startedAt: string, endedAt: string, outcome: Outcome, reason: string, steps: number[],
 *   verdicts: StepRecord[], by?: string }} EndedCanary
 *   by: who ended it (actor.js): the command that ran it, or the one that aborted it
 */

/** The shares a canary goes through unless told: 100 is the promote. */
const DEFAULT_STEPS = [5, 25, 50, 100];

/** How long a canary command's lease lasts unless told: it renews it well before, at every look at the store. */
const LEASE_TTL_MS = 15_000;

/** A canary was ended under the command's feet (aborted, or taken over by a resume): it stops, changing nothing. */
class CanaryGone extends ReleaseError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CanaryGone';
  }
}

/**
 * Whether the command a canary's state names still runs: known only on its own machine.
 * @param {CanaryState['command']} command
 * @returns {boolean | undefined} undefined: it runs on another machine
 */
function commandAlive(command) {
  if (command.host !== os.hostname()) return undefined;
  try {
    process.kill(command.pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has the pid; it is alive, if perhaps not ours.
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * The running canary, or a refusal naming what to do instead.
 * @param {StoreLayout} layout
 * @param {string} remote
 */
function runningOrRefuse(layout, remote) {
  const { canary, problem } = readCanary(layout);
  if (problem) throw new ReleaseError(`${remote}'s canary cannot be read: ${problem}`);
  if (!canary) throw new ReleaseError(`no canary of ${remote} is running`);
  return canary;
}

/**
 * Gates the release, then starts its canary at the first step's share.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} id
 * @param {{ steps: number[], settings: CanaryState['settings'], gate: ((releaseDir: string) => Promise<GateResult>)
 *   | null, now: () => number, leaseTtlMs?: number }} options
 * @returns {Promise<CanaryState>}
 */
async function startCanary(layout, remote, id, { steps, settings, gate, now, leaseTtlMs = LEASE_TTL_MS }) {
  ensureWritable(layout);
  return withStoreLock(layout.lock, `canary ${remote} ${id}`, async () => {
    refuseWhileCanary(layout, remote, 'second canary');
    const releaseDir = usableRelease(layout, remote, id);
    const { live } = liveAndPrevious(layout);
    if (!live) throw new ReleaseError(`no release of ${remote} is live: there is nothing to compare a canary with`);
    if (live === id) throw new ReleaseError(`release ${id} of ${remote} is already live`);
    /** @type {GateResult} */
    const result = gate
      ? await gate(releaseDir)
      : { at: new Date(now()).toISOString(), passed: true, skipped: true, checks: [] };
    writeGate(layout, id, result);
    if (!result.passed) {
      const failed = result.checks.filter((check) => !check.ok);
      throw new ReleaseError(
        `release ${id} of ${remote} failed the gate; no canary started.\n` +
          failed.map((check) => `  ✗ ${check.name}: ${check.detail ?? 'failed'}`).join('\n'),
      );
    }
    const at = new Date(now()).toISOString();
    /** @type {CanaryState} */
    const state = {
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
    };
    writeCanary(layout, remote, state);
    return state;
  });
}

/**
 * Ends a canary just started, before anyone was judged on it (nginx could not be told of it): nothing is recorded.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} id
 */
function withdrawCanary(layout, remote, id) {
  return withStoreLock(layout.lock, `canary ${remote} ${id}`, async () => endCanary(layout));
}

/**
 * The lease a state holds; a state written before leases holds one that ran out.
 * @param {CanaryState} state
 * @returns {import('./canaryInStore').CanaryLease}
 */
const leaseOf = (state) => state.lease ?? { epoch: 0, ttlMs: LEASE_TTL_MS, expiresAt: state.stepStartedAt };

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
  current.command.pid === mine.command.pid;

/**
 * Changes the canary the command runs, under the lock, once it has checked that the canary is still the one it runs
 * and that its lease was not taken over; the change renews the lease.
 * @template T
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {CanaryState} mine the state as the command last wrote it
 * @param {(current: CanaryState) => T} change
 * @returns {Promise<T>}
 */
function changeMine(layout, remote, mine, change) {
  return withStoreLock(layout.lock, `canary ${remote} ${mine.id}`, async () => {
    const { canary } = readCanary(layout);
    if (!canary || canary.id !== mine.id || canary.startedAt !== mine.startedAt) {
      throw new CanaryGone(`the canary of release ${mine.id} was ended by another command (npm run releases says how)`);
    }
    if (!sameHolder(canary, mine)) {
      const { host, pid } = canary.command;
      throw new CanaryGone(`the canary of release ${mine.id} was taken over by pid ${pid} on ${host}`);
    }
    return change(canary);
  });
}

/**
 * Renews the command's lease on its canary (refused, as any change, once another command took it over).
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {CanaryState} mine
 * @param {number} at ms since 1970
 * @returns {Promise<CanaryState>}
 */
function renewLease(layout, remote, mine, at) {
  return changeMine(layout, remote, mine, (current) => {
    const changed = renewed(current, at);
    writeCanary(layout, remote, changed);
    return changed;
  });
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
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {CanaryState} mine
 * @param {StepRecord} passed
 * @param {number} share
 * @param {number} at ms since 1970
 * @returns {Promise<CanaryState>}
 */
function advanceCanary(layout, remote, mine, passed, share, at) {
  return changeMine(layout, remote, mine, (current) => {
    const changed = {
      ...renewed(current, at),
      share,
      stepStartedAt: new Date(at).toISOString(),
      verdicts: [...current.verdicts, passed],
    };
    writeCanary(layout, remote, changed);
    return changed;
  });
}

/**
 * Appends how the canary ended to the canary history, on disk.
 * @param {StoreLayout} layout
 * @param {CanaryState} state
 * @param {Outcome} outcome
 * @param {string} reason
 * @param {StepRecord[]} verdicts
 * @param {number} at
 * @returns {{ ended: EndedCanary, undo: () => void }} undo: takes the line out again
 */
function recordEnd(layout, state, outcome, reason, verdicts, at) {
  /** @type {EndedCanary} */
  const ended = {
    id: state.id,
    startedAt: state.startedAt,
    endedAt: new Date(at).toISOString(),
    outcome,
    reason,
    steps: state.steps,
    verdicts,
    by: thisActor(),
  };
  return { ended, undo: appendLinesDurably(layout.canaryHistory, `${JSON.stringify(ended)}\n`) };
}

/**
 * Ends the canary the command runs: promoted (the release is made live first, so that its visitors never go back to
 * the old one for a moment), or rolled back / without a verdict (everyone goes back to live at once).
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {CanaryState} mine
 * @param {{ outcome: Exclude<Outcome, 'aborted'>, reason: string, last: StepRecord | undefined, at: number }} end
 */
function finishCanary(layout, remote, mine, { outcome, reason, last, at }) {
  return changeMine(layout, remote, mine, (current) => {
    const verdicts = last ? [...current.verdicts, last] : current.verdicts;
    // The end recorded first: should the promote fail (a full disk), its line is taken out again and the canary
    // still runs, as the store had it.
    const { ended: record, undo } = recordEnd(layout, current, outcome, reason, verdicts, at);
    if (outcome === 'promoted') {
      const { live } = liveAndPrevious(layout);
      try {
        const change = { at: new Date(at).toISOString(), action: /** @type {const} */ ('promote'), id: current.id };
        changeLive(layout, { ...change, from: live ?? null, by: thisActor() });
      } catch (error) {
        undo();
        throw error;
      }
    }
    endCanary(layout);
    return record;
  });
}

/** How long an abort waits for the command running the canary to let go of the lock (it holds it for moments). */
const ABORT_LOCK_WAIT_MS = 800;

/**
 * Puts everyone on live now, whatever the command running the canary is doing: it finds its canary gone under the
 * lock at its next change, and stops.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {{ now: () => number }} options
 * @returns {Promise<EndedCanary | { problem: string }>} the canary ended, or what was wrong with a state that was not one
 */
async function abortCanary(layout, remote, { now }) {
  abortable(layout, remote);
  const until = Date.now() + ABORT_LOCK_WAIT_MS;
  for (;;) {
    try {
      return await withStoreLock(layout.lock, `canary ${remote} --abort`, async () => {
        const { canary, problem } = abortable(layout, remote);
        // Ended first, whatever the disk can still take: an abort is what puts everyone back on live.
        endCanary(layout);
        // A state that cannot be read is ended too (servers already put no one in it): there is nothing to record.
        if (!canary) return { problem: /** @type {string} */ (problem) };
        try {
          return recordEnd(layout, canary, 'aborted', 'aborted by an operator', canary.verdicts, now()).ended;
        } catch (error) {
          throw new ReleaseError(
            `${remote}'s canary is ended (everyone is on live), but its end could not be recorded in ` +
              `${layout.canaryHistory}: ${/** @type {Error} */ (error).message}`,
          );
        }
      });
    } catch (error) {
      if (!(error instanceof StoreBusyError) || Date.now() >= until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * The canary an abort ends: one that runs, or a state that cannot be read; a refusal when there is neither.
 * @param {StoreLayout} layout
 * @param {string} remote
 */
function abortable(layout, remote) {
  const read = readCanary(layout);
  if (!read.canary && !read.problem) throw new ReleaseError(`no canary of ${remote} is running`);
  return read;
}

/**
 * Makes this process the one running a canary whose command's lease ran out (or whose process is gone, on this
 * machine), keeping its share and its step's start: a new lease, whose epoch refuses every later change of the other.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {{ now?: () => number }} [options]
 * @returns {Promise<CanaryState>}
 */
function takeOverCanary(layout, remote, { now = Date.now } = {}) {
  runningOrRefuse(layout, remote);
  return withStoreLock(layout.lock, `canary ${remote} --resume`, async () => {
    const state = runningOrRefuse(layout, remote);
    const lease = leaseOf(state);
    const at = now();
    const runOut = at >= Date.parse(lease.expiresAt);
    if (!runOut && commandAlive(state.command) !== false) {
      const { host, pid } = state.command;
      throw new ReleaseError(
        `the command running ${remote}'s canary is alive (pid ${pid} on ${host}; its lease runs until ` +
          `${lease.expiresAt}): nothing to resume`,
      );
    }
    const next = renewed({ ...state, command: thisCommand(), lease: { ...lease, epoch: lease.epoch + 1 } }, at);
    writeCanary(layout, remote, next);
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

/**
 * The canaries of the remote that ended, oldest first.
 * @param {StoreLayout} layout
 * @returns {EndedCanary[]}
 */
const endedCanaries = (layout) => readJsonLines(layout.canaryHistory).filter(isEndedCanary);

module.exports = {
  DEFAULT_STEPS,
  LEASE_TTL_MS,
  leaseOf,
  renewalDue,
  renewLease,
  sameHolder,
  CanaryGone,
  commandAlive,
  startCanary,
  withdrawCanary,
  advanceCanary,
  finishCanary,
  abortCanary,
  takeOverCanary,
  endedCanaries,
};
