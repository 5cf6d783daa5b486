// What a node's copy of the store on PostgreSQL says of itself (./snapshotSync.js writes it, readiness reads it): the
// store revision it holds, when it last agreed with the database, and why it cannot now. A node with no such file has
// no copy: with a database configured, it is not ready.
//
//   <store>/.sync.json   { revision, syncedAt, problem? }
const fs = require('node:fs');
const path = require('node:path');
const { writeFileDurably } = require('../durableFiles');

const STATUS_FILE = '.sync.json';

/** @typedef {{ revision: string, syncedAt: string, problem?: string }} SnapshotStatus */

/**
 * @param {string} dir the node's store folder
 * @returns {SnapshotStatus | undefined}
 */
function readSnapshotStatus(dir) {
  try {
    const status = JSON.parse(fs.readFileSync(path.join(dir, STATUS_FILE), 'utf8'));
    if (typeof status?.revision !== 'string' || Number.isNaN(Date.parse(status.syncedAt))) return undefined;
    return status;
  } catch {
    return undefined;
  }
}

/**
 * @param {string} dir
 * @param {SnapshotStatus} status
 */
function writeSnapshotStatus(dir, status) {
  fs.mkdirSync(dir, { recursive: true });
  writeFileDurably(path.join(dir, STATUS_FILE), `${JSON.stringify(status)}\n`);
}

module.exports = { readSnapshotStatus, writeSnapshotStatus };
