// The CPU time a process and its descendants have used, from /proc (Linux): what a server spent on a load round is
// the difference of two readings, whatever its workers and children.
const fs = require('node:fs');

/** /proc's clock ticks per second: Linux reports CPU time in USER_HZ, 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Every process's parent and CPU ticks (user + system), read from /proc/<pid>/stat; a process that ends while it is
 * read is left out.
 * @returns {Map<number, { parent: number, ticks: number }>}
 */
function processTable() {
  /** @type {Map<number, { parent: number, ticks: number }>} */
  const table = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name (field 2) may hold spaces and parentheses: the fields after it start at its last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.set(Number(name), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return table;
}

/**
 * The CPU seconds `roots` and their descendants have used so far.
 * @param {number[]} roots
 */
function treeCpuSeconds(roots) {
  const table = processTable();
  const inTree = new Set(roots);
  // Parents come before children in no particular order: repeat until no process joins.
  for (let grown = true; grown; ) {
    grown = false;
    for (const [pid, { parent }] of table) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grown = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of inTree) ticks += table.get(pid)?.ticks ?? 0;
  return ticks / TICKS_PER_SECOND;
}

module.exports = { treeCpuSeconds };
