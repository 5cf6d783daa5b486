// How much of the disk field data may take: FIELD_DATA_DIR has a byte budget per hour (the current hour's folder,
// every writer's files together) and in total (every hour's folder). Anyone can post beacons, and a token lets its
// holder post many, so without it a flood would fill the disk the site, its logs and its release store live on.
//
// Each writing process measures the folder at most every MEASURE_EVERY_MS, in the background (never per beacon),
// and counts what it writes itself in between; past either budget it admits no more records (the endpoint answers
// 429). What it cannot see is what the other writers wrote since its last measure: the store may pass a budget by
// what every writer writes in MEASURE_EVERY_MS (at most their rate caps' worth; docs/field-data.md says how much).
// The hours before the current one change only by a late flush, so they are measured again once a minute.
//
// A writer that refuses records says so, for the readers that decide (the canary): a marker beside its records of
// the hour, `<host>-<pid>.dropped`, holding the times of the hour's first and latest drop (rewritten at most every
// MARK_EVERY_MS). A reader asks droppedIn() whether any writer dropped records in its window.
const fs = require('node:fs');
const path = require('node:path');
const { HOUR_FOLDER, hourOf } = require('./recordStore');

/** The defaults: a busy hour of the whole site is well under a tenth of the hour's budget (docs/field-data.md). */
const DEFAULT_HOUR_BYTES = 256 * 1024 * 1024;
const DEFAULT_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;
/** How often a writer measures the folder: at most this often, when records arrive. */
const MEASURE_EVERY_MS = 2000;
/** How often the hours before the current one are measured again. */
const PAST_HOURS_EVERY_MS = 60_000;
/** How often a writer that keeps dropping records rewrites its marker: its latest drop is at most this old there. */
const MARK_EVERY_MS = 1000;
const DROP_MARKER = '.dropped';

/**
 * Bytes of the files of one hour's folder; 0 when it is gone (pruned meanwhile).
 * @param {string} folder
 */
async function folderBytes(folder) {
  let files;
  try {
    files = await fs.promises.readdir(folder);
  } catch {
    return 0;
  }
  const sizes = await Promise.all(
    files.map((file) =>
      fs.promises.stat(path.join(folder, file)).then(
        (stat) => stat.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/**
 * @param {{ dir: string, name: string, hourBytes?: number, totalBytes?: number, now?: () => number,
 *   onError?: (error: Error) => void }} options
 *   name: this writer's file name without its extension (`<host>-<pid>`), which its marker shares
 */
function createStoreBudget({
  dir,
  name,
  hourBytes = DEFAULT_HOUR_BYTES,
  totalBytes = DEFAULT_TOTAL_BYTES,
  now = Date.now,
  onError = () => {},
}) {
  /** What the last measure found: the current hour's bytes, the hours' before it. */
  let measured = { hour: '', current: 0, past: 0, pastAt: -Infinity };
  let measuredAt = -Infinity;
  /** Bytes this writer wrote since the last measure began. */
  let written = 0;
  /** @type {Promise<void> | undefined} */
  let measuring;
  /** This hour's run of drops: its first and latest drop, and when its marker was last written. */
  let drops = { hour: '', first: 0, markedAt: -Infinity };

  async function measure() {
    const time = now();
    const hour = hourOf(time);
    const countedBefore = written;
    const current = await folderBytes(path.join(dir, hour));
    let { past, pastAt } = measured;
    if (measured.hour !== hour || time - pastAt >= PAST_HOURS_EVERY_MS) {
      /** @type {string[]} */
      let hours = [];
      try {
        hours = (await fs.promises.readdir(dir)).filter((entry) => HOUR_FOLDER.test(entry) && entry !== hour);
      } catch {
        // No folder yet: nothing is stored.
      }
      past = 0;
      for (const entry of hours) past += await folderBytes(path.join(dir, entry));
      pastAt = time;
    }
    measured = { hour, current, past, pastAt };
    // What was written while measuring may or may not be in the figures: counted again until the next measure.
    written -= countedBefore;
  }

  /** @param {number} time */
  function markDrop(time) {
    const hour = hourOf(time);
    if (drops.hour !== hour) drops = { hour, first: time, markedAt: -Infinity };
    if (time - drops.markedAt < MARK_EVERY_MS) return;
    drops.markedAt = time;
    try {
      fs.mkdirSync(path.join(dir, hour), { recursive: true });
      fs.writeFileSync(path.join(dir, hour, `${name}${DROP_MARKER}`), `${drops.first} ${time}\n`);
    } catch (error) {
      onError(/** @type {Error} */ (error));
    }
  }

  return {
    /**
     * Whether the store has room for another beacon's records. When it has not, the drop is marked for the readers
     * that decide.
     */
    admit() {
      const time = now();
      if (!measuring && time - measuredAt >= MEASURE_EVERY_MS) {
        measuredAt = time;
        measuring = measure()
          .catch((error) => onError(/** @type {Error} */ (error)))
          .finally(() => {
            measuring = undefined;
          });
      }
      const current = (measured.hour === hourOf(time) ? measured.current : 0) + written;
      if (current < hourBytes && measured.past + current < totalBytes) return true;
      markDrop(time);
      return false;
    },
    /** @param {number} bytes what this writer has just written (or buffered to write) */
    spent(bytes) {
      written += bytes;
    },
    /** Measures the folder now (the next admit() uses the figures): for tests. */
    measure: () => measure(),
  };
}

/** @typedef {ReturnType<typeof createStoreBudget>} StoreBudget */

/**
 * Whether any writer dropped records for the budget from `since` to `until` (ms since 1970), by the markers of the
 * hours they span. A marker's latest drop may be up to MARK_EVERY_MS older than the writer's latest: counted as that
 * much later.
 * @param {string} dir
 * @param {{ since: number, until: number }} window
 */
function droppedIn(dir, { since, until }) {
  const first = hourOf(since);
  const last = hourOf(until);
  let hours;
  try {
    hours = fs.readdirSync(dir).filter((entry) => HOUR_FOLDER.test(entry) && entry >= first && entry <= last);
  } catch {
    return false;
  }
  for (const hour of hours) {
    let files;
    try {
      files = fs.readdirSync(path.join(dir, hour)).filter((file) => file.endsWith(DROP_MARKER));
    } catch {
      continue;
    }
    for (const file of files) {
      let text = '';
      try {
        text = fs.readFileSync(path.join(dir, hour, file), 'utf8');
      } catch {
        continue;
      }
      const [from, to] = text.trim().split(' ').map(Number);
      // A marker that cannot be read says records were dropped, at some time in its hour.
      if (!Number.isFinite(from) || !Number.isFinite(to)) return true;
      if (/** @type {number} */ (from) <= until && /** @type {number} */ (to) + MARK_EVERY_MS >= since) return true;
    }
  }
  return false;
}

module.exports = { createStoreBudget, droppedIn, DEFAULT_HOUR_BYTES, DEFAULT_TOTAL_BYTES, MEASURE_EVERY_MS };
