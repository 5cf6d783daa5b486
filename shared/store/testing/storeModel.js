// A plain model of the release store, for the model-based test (../model.test.js): each remote's releases (oldest
// first), the releases that were live as rollbacks unwind them, the history of the live release, the running canary
// and the lease of the command running it, the canaries that ended, and how many changes the audit holds. Each
// function below is one release command: it changes the remote's model as the store must, and returns what the
// command must answer, or throws a Refusal (changing nothing) saying what the store's refusal must say. They are
// written from what docs/releasing.md promises, not from operations.js and canaryChanges.js, so that the test
// compares two accounts of the rules. Time is the model's own clock (`Model.now`), which the commands are given.

/** The lease every canary of the model takes: the shortest there is, so that a few waits let it run out. */
const LEASE_MS = 1000;

/**
 * A canary as the model has it, named by when it started (no two start at one moment: every start moves the clock).
 * @typedef {{ id: string, startedAt: number, steps: number[], step: number, epoch: number, expiresAt: number,
 *   written: number, verdicts: number }} ModelCanary
 *   step: where it is in `steps`; expiresAt: its lease, renewals included; written: its lease as the last change
 *   wrote it (what a node's copy has: a renewal is no change)
 * @typedef {{ startedAt: number, epoch: number }} Holder a command's hold on a canary: its start and lease's epoch
 * @typedef {{ action: 'promote' | 'rollback', id: string, from: string | null }} Change
 * @typedef {{ id: string, outcome: string, verdicts: number }} Ended
 * @typedef {{ releases: string[], live: string[], history: Change[], canary: ModelCanary | null, ended: Ended[],
 *   audit: number, holders: Holder[] }} RemoteModel
 *   live: the releases that were live, the live one last (a promote pushes, a rollback pops); holders: every hold a
 *   command was given (a start, a take-over), oldest first
 * @typedef {{ now: number, remotes: Record<string, RemoteModel> }} Model
 */

/** What the store must refuse, and the words its refusal must have. */
class Refusal extends Error {
  /** @param {RegExp} says */
  constructor(says) {
    super(`the store must refuse: ${says}`);
    this.says = says;
  }
}

/**
 * @param {string[]} remotes
 * @param {number} now
 * @returns {Model}
 */
const emptyModel = (remotes, now) => ({
  now,
  remotes: Object.fromEntries(
    remotes.map((remote) => [
      remote,
      { releases: [], live: [], history: [], canary: null, ended: [], audit: 0, holders: [] },
    ]),
  ),
});

/** @param {RemoteModel} remote */
const liveOf = (remote) => remote.live.at(-1);
/** @param {RemoteModel} remote */
const previousOf = (remote) => remote.live.at(-2);

/** @param {RemoteModel} remote */
function noCanary(remote) {
  if (remote.canary) throw new Refusal(/a canary of \w+ is running/);
}

/**
 * @param {RemoteModel} remote
 * @param {string} id
 */
function recorded(remote, id) {
  if (!remote.releases.includes(id)) throw new Refusal(new RegExp(`there is no release ${id} of`));
}

/**
 * Makes `id` live, as a promote (of the command, or of a canary's end) does.
 * @param {RemoteModel} remote
 * @param {string} id
 */
function promoteTo(remote, id) {
  remote.history.push({ action: 'promote', id, from: liveOf(remote) ?? null });
  remote.live.push(id);
}

/**
 * @param {RemoteModel} remote
 * @param {string} id the build's release id
 */
function publish(remote, id) {
  if (remote.releases.includes(id)) return { id, existed: true };
  remote.releases.push(id);
  remote.audit += 1;
  return { id, existed: false };
}

/**
 * @param {RemoteModel} remote
 * @param {string} id
 */
function promote(remote, id) {
  noCanary(remote);
  recorded(remote, id);
  // The gate's result (skipped) is written even when the release is live already: a change.
  remote.audit += 1;
  const from = liveOf(remote);
  if (from === id) return { changed: false, from };
  promoteTo(remote, id);
  return { changed: true, from };
}

/** @param {RemoteModel} remote */
function rollback(remote) {
  noCanary(remote);
  const from = liveOf(remote);
  const id = previousOf(remote);
  if (!from) throw new Refusal(/no release of \w+ is live: there is nothing to roll back/);
  if (!id) throw new Refusal(/no release was live before it/);
  recorded(remote, id);
  remote.history.push({ action: 'rollback', id, from });
  remote.live.pop();
  remote.audit += 1;
  return { id, from };
}

/**
 * Keeps the newest `keep` releases, the live one, the previous one, the one the last rollback left (if the last
 * change was one) and a running canary's; removes the rest.
 * @param {RemoteModel} remote
 * @param {number} keep
 */
function prune(remote, keep) {
  const last = remote.history.at(-1);
  const kept = new Set([
    liveOf(remote),
    previousOf(remote),
    last?.action === 'rollback' ? last.from : undefined,
    remote.canary?.id,
    ...(keep > 0 ? remote.releases.slice(-keep) : []),
  ]);
  const removed = remote.releases.filter((id) => !kept.has(id));
  remote.releases = remote.releases.filter((id) => kept.has(id));
  remote.audit += 1;
  return { removed, kept: remote.releases };
}

/**
 * @param {RemoteModel} remote
 * @param {string} id
 * @param {number[]} steps
 * @param {number} now
 */
function startCanary(remote, id, steps, now) {
  noCanary(remote);
  recorded(remote, id);
  const live = liveOf(remote);
  if (!live) throw new Refusal(/nothing to compare a canary with/);
  if (live === id) throw new Refusal(new RegExp(`release ${id} of \\w+ is already live`));
  const expiresAt = now + LEASE_MS;
  /** @type {ModelCanary} */
  const canary = { id, startedAt: now, steps, step: 0, epoch: 1, expiresAt, written: expiresAt, verdicts: 0 };
  remote.canary = canary;
  remote.holders.push({ startedAt: now, epoch: 1 });
  remote.audit += 1;
  return heldView(canary, expiresAt);
}

/**
 * The running canary when `holder` still holds it; otherwise the refusal a change of it gets.
 * @param {RemoteModel} remote
 * @param {Holder} holder
 */
function held(remote, holder) {
  const { canary } = remote;
  if (!canary || canary.startedAt !== holder.startedAt) throw new Refusal(/was ended by another command/);
  if (canary.epoch !== holder.epoch) throw new Refusal(/was taken over by pid/);
  return canary;
}

/**
 * Moves the canary to its next share, the step passed; its lease runs from now.
 * @param {RemoteModel} remote
 * @param {Holder} holder
 * @param {number} now
 */
function advanceCanary(remote, holder, now) {
  const canary = held(remote, holder);
  canary.step += 1;
  canary.verdicts += 1;
  canary.expiresAt = canary.written = now + LEASE_MS;
  remote.audit += 1;
  return heldView(canary, canary.expiresAt);
}

/**
 * The next share of the canary `holder` holds, if it holds it and has one left.
 * @param {RemoteModel} remote
 * @param {Holder} holder
 */
function nextShare(remote, holder) {
  const canary = remote.canary;
  const holds = canary?.startedAt === holder.startedAt && canary.epoch === holder.epoch;
  return holds ? canary.steps[canary.step + 1] : undefined;
}

/**
 * @param {RemoteModel} remote
 * @param {Holder} holder
 * @param {'promoted' | 'rolled back' | 'no verdict'} outcome
 */
function finishCanary(remote, holder, outcome) {
  const canary = held(remote, holder);
  return ended(remote, canary, outcome);
}

/** @param {RemoteModel} remote */
function abortCanary(remote) {
  if (!remote.canary) throw new Refusal(/no canary of \w+ is running/);
  return ended(remote, remote.canary, 'aborted');
}

/**
 * @param {RemoteModel} remote
 * @param {ModelCanary} canary
 * @param {string} outcome
 */
function ended(remote, canary, outcome) {
  const end = { id: canary.id, outcome, verdicts: canary.verdicts };
  remote.ended.push(end);
  if (outcome === 'promoted') promoteTo(remote, canary.id);
  remote.canary = null;
  remote.audit += 1;
  return end;
}

/**
 * A renewal of the lease: no change of the store (no audit line, nothing a node copies), and never moves it back.
 * @param {RemoteModel} remote
 * @param {Holder} holder
 * @param {number} now
 */
function renewLease(remote, holder, now) {
  const canary = held(remote, holder);
  canary.expiresAt = Math.max(canary.expiresAt, now + LEASE_MS);
  return heldView(canary, now + LEASE_MS);
}

/**
 * Another command takes the canary over, once its lease ran out: a new lease, of the next epoch.
 * @param {RemoteModel} remote
 * @param {number} now
 */
function takeOverCanary(remote, now) {
  const { canary } = remote;
  if (!canary) throw new Refusal(/no canary of \w+ is running/);
  if (now < canary.expiresAt) throw new Refusal(/is alive .*its lease runs until .*: nothing to resume/);
  canary.epoch += 1;
  canary.expiresAt = canary.written = now + LEASE_MS;
  remote.holders.push({ startedAt: canary.startedAt, epoch: canary.epoch });
  remote.audit += 1;
  return heldView(canary, canary.expiresAt);
}

/**
 * A canary as the command holding it sees it.
 * @param {ModelCanary} canary
 * @param {number} expiresAt its lease, as the command's last change or renewal set it
 */
const heldView = (canary, expiresAt) => ({
  id: canary.id,
  share: /** @type {number} */ (canary.steps[canary.step]),
  epoch: canary.epoch,
  expiresAt,
  verdicts: canary.verdicts,
});

/**
 * The remote as the release commands read it.
 * @param {RemoteModel} remote
 */
const commandsView = (remote) => ({
  releases: remote.releases,
  live: liveOf(remote) ?? null,
  // A rollback's release, as `releases` marks it: none once it was pruned.
  previous: remote.releases.find((id) => id === previousOf(remote)) ?? null,
  history: remote.history,
  canary: remote.canary && heldView(remote.canary, remote.canary.expiresAt),
  ended: remote.ended,
  audit: remote.audit,
});

/**
 * The remote as a node's copy serves it (../postgres/snapshotSync.js): the canary's lease as the last change wrote
 * it.
 * @param {RemoteModel} remote
 */
const nodeView = (remote) => ({
  releases: [...remote.releases].sort(),
  live: liveOf(remote) ?? null,
  history: remote.history,
  canary: remote.canary && heldView(remote.canary, remote.canary.written),
  ended: remote.ended,
});

/** Each release command, as the model says it must go. */
const rules = {
  publish,
  promote,
  rollback,
  prune,
  startCanary,
  advanceCanary,
  finishCanary,
  abortCanary,
  renewLease,
  takeOverCanary,
};

module.exports = { LEASE_MS, Refusal, emptyModel, rules, nextShare, commandsView, nodeView };
