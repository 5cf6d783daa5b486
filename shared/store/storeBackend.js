// What a store backend gives the rules of the release commands (operations.js, canaryChanges.js), so that one rule
// runs the same on every backend: the folder store (folderBackend.js) and PostgreSQL with object storage
// (postgres/postgresBackend.js). A backend holds one remote's releases.
//
// A change is all or nothing. The rule reads the remote's state and writes through a RemoteState inside `change`; a
// rule that throws has changed nothing. The folder serializes changes with its lock and undoes what it wrote; the
// database buffers the writes and makes them in one transaction, refused when another change committed meanwhile.
// Every change that wrote is recorded in the audit (audit.js) with the backend's actor.

/** @typedef {import('./records').ReleaseRecord} ReleaseRecord */
/** @typedef {import('./records').GateResult} GateResult */
/** @typedef {import('./liveHistory').LiveChange} LiveChange */
/** @typedef {import('./canaryInStore').CanaryState} CanaryState */
/** @typedef {import('./canaryChanges').EndedCanary} EndedCanary */

/**
 * One remote's store as a change or a read sees it. Reads are of the state when the change began, with the change's
 * own writes.
 * @typedef {object} RemoteState
 * @property {(id: string) => ReleaseRecord | undefined} record
 * @property {() => ReleaseRecord[]} releases oldest first
 * @property {(id: string) => GateResult | undefined} gate the last gate run on the release
 * @property {() => LiveChange[]} history every change of the live release, oldest first
 * @property {() => { id?: string, problem?: string }} pointer the live release, or why it cannot be read
 * @property {() => { canary?: CanaryState, problem?: string }} canary the running canary (its lease as last renewed),
 *   or why it cannot be read
 * @property {() => EndedCanary[]} endedCanaries oldest first
 * @property {(id: string) => string | undefined} unusable why a release that is recorded cannot be served
 * @property {(id: string, result: GateResult) => void} writeGate
 * @property {(change: LiveChange) => void} changeLive the history and the live release
 * @property {(state: CanaryState) => void} writeCanary with the lease it holds; drops the lease's renewal
 * @property {() => void} endCanary and the lease's renewal
 * @property {(ended: EndedCanary) => void} recordEnd appends to the ended canaries
 * @property {(id: string, mark: string) => void} addPreviewMark
 * @property {(id: string) => void} removeRelease its record, gate, marks and files
 * @property {(kept: ReleaseRecord[]) => void} removeUnusedFiles files no kept release names, and what interrupted
 *   publishes left
 */

/**
 * One remote's store.
 * @typedef {object} StoreBackend
 * @property {string} remote
 * @property {string} where where its releases are, for messages
 * @property {import('./actor').Actor} actor who makes its changes: records, the history and the audit name them
 * @property {<T>(label: string, change: (state: RemoteState) => Promise<T>) => Promise<T>} change one change, all
 *   or nothing; label: the command making it, as a refusal names it (`promote jobs 0123…`)
 * @property {<T>(read: (state: RemoteState) => T) => Promise<T>} read
 * @property {() => Promise<import('./audit').AuditEntry[]>} audit every change of the remote's store, oldest first
 * @property {(buildDir: string, source: { commit: string | null, dirty: boolean }) =>
 *   Promise<{ id: string, existed: boolean }>} publish
 * @property {(id: string) => Promise<{ dir: string, done: () => Promise<void> }>} releaseFiles the release's files in
 *   a folder (for the gate), until done
 * @property {() => Promise<void>} told what serves the store is told of a canary's change (the folder's nginx)
 * @property {(label: string, renew: (running: { canary?: CanaryState, problem?: string }) =>
 *   import('./canaryLease').LeaseRenewal) => Promise<void>} renewLease records a renewal of the running canary's
 *   lease (canaryLease.js): `renew` is given the canary as the store has it, as a change would see it (the folder's
 *   lock, the remote's row lock), and throws to refuse. No change: no revision, no audit line, no one told.
 */

module.exports = {};
