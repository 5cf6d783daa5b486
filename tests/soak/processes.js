// What Linux says of a process (/proc), for the soak's memory samples.
const fs = require('node:fs');

/**
 * The process's resident memory in bytes, or undefined once it is gone.
 * @param {number} pid
 */
function residentBytes(pid) {
  try {
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * The ids of the process's children (nginx's workers, npm start's workers), in the order Linux lists them.
 * @param {number} pid
 * @returns {number[]}
 */
function childrenOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

module.exports = { residentBytes, childrenOf };
