// The CPU time a process and its descendants have used: what a server spent on a load round is the difference of two
// readings, whatever its workers and children.
const { processTable } = require('@nativegtm/server/processTable');

/**
 * The CPU seconds `roots` and their descendants have used so far.
 * @param {number[]} roots
 */
function treeCpuSeconds(roots) {
  const table = processTable();
  const inTree = new Set(roots);
  // Parents come before children in no particular order: repeat until no process joins.
  for (let grown = true; grown;) {
    grown = false;
    for (const { pid, parent } of table) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grown = true;
      }
    }
  }
  return table.filter(({ pid }) => inTree.has(pid)).reduce((sum, { cpuSeconds }) => sum + cpuSeconds, 0);
}

module.exports = { treeCpuSeconds };
