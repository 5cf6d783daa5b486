// Ending browser processes completely. Browsers start helpers (Firefox's fork server, WebKit's web process) that
// outlive the program that started them, re-parented to init, and keep writing into the scratch folder we are about
// to remove: they are ended as a process group.

const fs = require('node:fs');

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The live processes of a group, from /proc (these tests run on Linux). Zombies are left out: they write nothing, and
 * whether init reaps an orphan at once or seconds later is up to the machine.
 * @param {number} pgid
 * @returns {number[]}
 */
function liveMembers(pgid) {
  const members = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // It ended while we looked.
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after its last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(entry));
  }
  return members;
}

/**
 * @param {number} pgid
 * @param {NodeJS.Signals} signal
 */
function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group has no process left.
  }
}

/**
 * Ends every process of the group led by `pgid` (a child spawned with `detached: true`) and resolves once none is
 * left: politely first, forcibly after `graceMs`.
 * @param {number | undefined} pgid  undefined for a child that never started
 * @param {{ graceMs?: number }} [options]
 */
async function stopProcessGroup(pgid, { graceMs = 5000 } = {}) {
  if (!pgid) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (liveMembers(pgid).length > 0) {
    if (Date.now() > deadline) signalGroup(pgid, 'SIGKILL');
    await sleep(50);
  }
}

module.exports = { liveMembers, sleep, stopProcessGroup };
