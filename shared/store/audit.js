// The audit: every change of a remote's store, what it was, when, and who made it (actor.js), appended by the change
// itself on every backend and never edited. On the folder it is <store>/<remote>/audit.jsonl, a line appended under
// the remote's lock once the change is whole; on PostgreSQL the `audit` table, written in the change's own
// transaction (postgres/postgresBackend.js). Nothing that changes the store edits or removes an entry: prune keeps it.
const { appendLinesDurably } = require('./durableFiles');
const { readJsonLines } = require('./liveHistory');
const { isActor } = require('./actor');

/** @typedef {import('./actor').Actor} Actor */
/**
 * One change of a remote's store.
 * @typedef {{ at: string, remote: string, action: string, actor: Actor }} AuditEntry
 *   action: the command's label, e.g. `promote jobs 0123…`
 */

/**
 * Whether a line read back is an entry this version writes (a torn or hand-made line is skipped).
 * @param {any} entry
 * @returns {entry is AuditEntry}
 */
const isAuditEntry = (entry) =>
  typeof entry?.at === 'string' &&
  typeof entry.remote === 'string' &&
  typeof entry.action === 'string' &&
  isActor(entry.actor);

/**
 * Appends one entry to a folder store's audit, on disk before it returns.
 * @param {string} file the remote's audit.jsonl
 * @param {AuditEntry} entry
 * @param {import('./storeLock').Fence} fence the remote's lock's
 */
function appendAudit(file, entry, fence) {
  appendLinesDurably(file, `${JSON.stringify(entry)}\n`, { fence });
}

/**
 * A folder store's audit, oldest first.
 * @param {string} file
 * @returns {AuditEntry[]}
 */
const readAudit = (file) => readJsonLines(file).filter(isAuditEntry);

module.exports = { appendAudit, readAudit, isAuditEntry };
