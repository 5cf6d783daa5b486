// Where field data ends up: one folder (FIELD_DATA_DIR, field-data/ at the repository's root by default) that every
// process writing records shares — each worker of the built-in server, the collector beside nginx, every node when the
// folder is shared storage, as the release store is. Each process appends to its own file, so writers never contend:
//
//   <dir>/<YYYY-MM-DDTHH>/<host>-<pid>.ndjson   one record per line, in the hour (UTC) it was received
//
// Readers (`npm run vitals`, the status page, the canary) read every file of the hours they ask for, so what they
// compute is exact over the records: percentiles are sorted values, not histogram estimates.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { appendLinesDurably } = require('@nativegtm/store/durableFiles');
const { repoRoot } = require('../deployables');

/**
 * One stored record. Labels are the server's, already bounded (fieldLabels.js): route, remote and release are ones the
 * site knows, or "other".
 * @typedef {{ t: number, type: 'view', route: string, remote: string, release: string, device: string, nav: string,
 *   signed: boolean, doc?: string, cohort?: string, seq?: number, net?: string, canary?: string }} ViewRecord
 * @typedef {Omit<ViewRecord, 'type'> & { type: 'vital', name: import('@nativegtm/contract/fieldData').VitalName,
 *   value: number, target?: string, targetRemote?: string }} VitalRecord
 *   value: milliseconds, or CLS's score
 * @typedef {Omit<ViewRecord, 'type'> & { type: 'error', source: string, page: string }} ErrorRecord
 *   remote and release: whose files threw; page: the remote that owns the page it happened on
 * @typedef {{ t: number, type: 'document', route: string, remote: string, cohort: string, doc: string, seq: 0,
 *   signed: true, net?: string, canary?: string, fragment: 'ok' | 'failed' }} DocumentRecord
 *   written by the shell's server itself for a document it served to a side of a canary of its page's remote: whether
 *   that remote's fragment made it into the document (failed: the page rendered in the browser). In the same files as
 *   the others: a reader that does not know it (every one but the canary's) skips it by its type.
 * @typedef {ViewRecord | VitalRecord | ErrorRecord} FieldRecord
 *   t: when it was received (ms since 1970); signed: it came with a valid token of a private document (doc: that
 *   document's id, cohort: who it was served to, "preview" or a side of a remote's canary, seq: the view's place in it,
 *   net: its token's keyed hash of the visitor's network, canary: the canary its token was issued for)
 */

/** How often buffered records are written out: a crash loses at most this much. */
const FLUSH_INTERVAL_MS = 1000;
/** Records buffered at most before they are written out at once. */
const MAX_BUFFERED = 2000;
/** Days of records kept by default (FIELD_DATA_RETENTION_DAYS), on a folder or a database: a week. */
const DEFAULT_RETENTION_DAYS = 7;
/** Records a process holds at most while the database cannot take them (FIELD_DATA_BUFFER; postgresRecords.js). */
const DEFAULT_BUFFER_RECORDS = 10_000;

/**
 * The store's folder: the one configured (FIELD_DATA_DIR), or field-data/ at the repository's root.
 * @param {string} [configured]
 */
function fieldDataDir(configured) {
  return path.resolve(configured ?? path.join(repoRoot, 'field-data'));
}

/**
 * The hour folder's name of a time: `2026-11-26T09`.
 * @param {number} time
 */
const hourOf = (time) => new Date(time).toISOString().slice(0, 13);

/** This process's name among the store's writers: `<host>-<pid>`, its files' names. */
const writerName = () => `${os.hostname().replace(/[^A-Za-z0-9_.-]/g, '_')}-${process.pid}`;

/** An hour folder's name. */
const HOUR_FOLDER = /^\d{4}-\d{2}-\d{2}T\d{2}$/;

/**
 * Appends records to this process's file of the current hour, buffered (one write a second, or sooner when many
 * records wait). Deletes hour folders older than the retention when it opens a new hour.
 * @param {{ dir: string, retentionHours?: number, now?: () => number, onError?: (error: Error) => void,
 *   budget?: { spent: (bytes: number) => void } }} options
 *   budget: told the bytes of the records written (storeBudget.js), which admits them
 */
function createRecordWriter({
  dir,
  retentionHours = DEFAULT_RETENTION_DAYS * 24,
  now = Date.now,
  onError = () => {},
  budget,
}) {
  const name = `${writerName()}.ndjson`;
  /** @type {string[]} */
  let buffered = [];
  let hour = '';
  /** When the current hour's folder ends (ms): the hour is only worked out again then. */
  let hourEnds = 0;
  /** @type {NodeJS.Timeout | undefined} */
  let timer;

  function prune() {
    const oldest = hourOf(now() - retentionHours * 3600_000);
    let entries;
    try {
      entries = fs.readdirSync(dir);
    } catch {
      return;
    }
    // Another process may prune the same folder at the same moment: force, and a failure is not this writer's.
    for (const entry of entries) {
      if (HOUR_FOLDER.test(entry) && entry < oldest) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    }
  }

  /**
   * Writes what is buffered to its hour's file (the hour it was received in: the buffer never spans two hours).
   * Synchronously: one append a second, of at most MAX_BUFFERED lines, costs well under a millisecond, and a worker
   * that exits right after its last flush (a drain) loses nothing.
   */
  function flush() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (buffered.length === 0) return;
    const lines = buffered.join('');
    const file = path.join(dir, hour, name);
    buffered = [];
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // On a line of its own after a line a crash cut short, and cut back off when it fails: nothing else is lost.
      // Not fsynced: a crash loses the last second's buffer anyway.
      appendLinesDurably(file, lines, { sync: false });
    } catch (error) {
      onError(/** @type {Error} */ (error));
    }
  }

  return {
    /** @param {FieldRecord[]} records */
    write(records) {
      const time = now();
      if (time >= hourEnds || time < hourEnds - 3600_000) {
        const current = hourOf(time);
        hourEnds = (Math.floor(time / 3600_000) + 1) * 3600_000;
        if (current !== hour) {
          flush();
          if (hour !== '') prune();
          hour = current;
        }
      }
      let bytes = 0;
      for (const record of records) {
        const line = `${JSON.stringify(record)}\n`;
        buffered.push(line);
        bytes += Buffer.byteLength(line);
      }
      budget?.spent(bytes);
      if (buffered.length >= MAX_BUFFERED) flush();
      else timer ??= setTimeout(flush, FLUSH_INTERVAL_MS).unref();
    },
    /** Writes out what is buffered, now. */
    flush,
  };
}

/** @typedef {ReturnType<typeof createRecordWriter>} RecordWriter */

/**
 * Every record received from `since` to `until` (ms since 1970), file by file. Lines that do not parse (a write cut
 * short by a crash) are skipped.
 * @param {string} dir
 * @param {{ since: number, until?: number }} window
 * @returns {AsyncGenerator<FieldRecord>}
 */
async function* readRecords(dir, { since, until = Date.now() }) {
  let hours;
  try {
    hours = fs.readdirSync(dir).filter((entry) => HOUR_FOLDER.test(entry));
  } catch {
    return;
  }
  const first = hourOf(since);
  const last = hourOf(until);
  for (const hour of hours.sort()) {
    if (hour < first || hour > last) continue;
    const folder = path.join(dir, hour);
    for (const file of fs.readdirSync(folder).sort()) {
      if (!file.endsWith('.ndjson')) continue;
      const lines = readline.createInterface({
        input: fs.createReadStream(path.join(folder, file)),
        crlfDelay: Infinity,
      });
      for await (const line of lines) {
        /** @type {FieldRecord} */
        let record;
        try {
          record = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof record?.t === 'number' && record.t >= since && record.t <= until) yield record;
      }
    }
  }
}

module.exports = {
  fieldDataDir,
  createRecordWriter,
  readRecords,
  hourOf,
  writerName,
  HOUR_FOLDER,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_BUFFER_RECORDS,
};
