// The machine's processes as /proc shows them (Linux): each one's parent and the CPU time it has used. nginx's reload
// watches for its master's new workers with it, and the bench reads what a server's processes spent.
const fs = require('node:fs');

/** /proc's clock ticks per second: Linux reports CPU time in USER_HZ, 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Every process: its id, its parent's, and the CPU seconds (user and system) it has used. A process that ends while
 * the table is read is left out.
 * @returns {{ pid: number, parent: number, cpuSeconds: number }[]}
 */
function processTable() {
  const table = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // "pid (command) state ppid … utime stime …": the command may hold spaces and parentheses, so read after its last
    // ")"; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.push({
      pid: Number(name),
      parent: Number(fields[1]),
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    });
  }
  return table;
}

module.exports = { processTable };
