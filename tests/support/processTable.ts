// Processes and the ports they listen on, as /proc shows them (these tests run on Linux): to tell what a command
// started and whether any of it is left once it has stopped.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process as /proc shows it; `start` (its start time) tells it from a later process given the same pid. */
export interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
  start: string;
  comm: string;
  cmdline: string;
}

/** Every process of the machine. */
function processTable(): Proc[] {
  const table: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp … starttime …": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        state: fields[0]!,
        start: fields[19]!,
        comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '),
      });
    } catch {
      // It ended while we looked.
    }
  }
  return table;
}

/**
 * What a command that leads its own process group started: the processes of that group, those that name its
 * temporary folder (PostgreSQL, which pg_ctl starts in a session of its own), and what they started.
 */
export function processesOf(leader: number, folder: string): Proc[] {
  const table = processTable().filter((proc) => proc.state !== 'Z');
  const ours = new Set(table.filter((proc) => proc.pgrp === leader || proc.cmdline.includes(folder)));
  for (let grew = true; grew;) {
    grew = false;
    for (const proc of table) {
      if (!ours.has(proc) && [...ours].some((parent) => parent.pid === proc.ppid)) {
        ours.add(proc);
        grew = true;
      }
    }
  }
  return [...ours];
}

/** Those of `procs` still running (a zombie runs nothing). */
export function stillRunning(procs: Proc[]): Proc[] {
  const now = new Map(processTable().map((proc) => [proc.pid, proc]));
  return procs.filter((proc) => {
    const current = now.get(proc.pid);
    return current !== undefined && current.start === proc.start && current.state !== 'Z';
  });
}

/** The TCP ports listened on: by any socket, or by the sockets of these inodes only. */
export function listeningPorts(inodes?: Set<string>): Set<number> {
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      // 0A: LISTEN.
      if (state !== '0A' || (inodes && !inodes.has(inode!))) continue;
      ports.add(parseInt(local!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** The inodes of the sockets the processes hold open. */
export function socketsOf(procs: Proc[]): Set<string> {
  const inodes = new Set<string>();
  for (const proc of procs) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${proc.pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${proc.pid}/fd/${fd}`));
        if (socket) inodes.add(socket[1]!);
      } catch {
        // Closed while we looked.
      }
    }
  }
  return inodes;
}
