// One history of many nodes under faults: every change the store committed (its audit: revision and time), what each
// node's copy held, sampled every 100 ms, and when each fault began and ended. checkHistory() holds it to the
// invariants docs/many-nodes.md promises:
// - no node ever goes back to an older revision;
// - every node has every committed change within CONVERGE_MS of its commit, not counting the time the database or
//   that node was down, paused or cut off (a node killed for good is held to the changes before its kill only). A
//   release's revision comes with its files, which each node downloads first: RELEASE_MS, for a release of this
//   site's size (127 files) that three nodes fetch at once;
// - no write is accepted after a lease is lost: a canary's lease epoch, as each node's copy holds it, never goes
//   back (a write of a command whose canary was taken over would carry its old epoch).
const { readCanary } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { readSnapshotStatus } = require('@nativegtm/store/postgres/snapshotStatus');

/** The bound the invariant states: a node has a commit within 1 s of the database and the node being up. */
const CONVERGE_MS = 1000;
/** The bound for a release (its audit action begins "release "): the download of its files, then the change. */
const RELEASE_MS = 5000;
/** How often the sampler reads each node's copy. */
const SAMPLE_MS = 100;

/**
 * @typedef {{ at: number, node: string, revision: bigint | undefined,
 *   leases?: Record<string, { id: string, startedAt?: string, epoch: number }> }} Sample  revision: none while the node has no copy, or
 *   its status cannot be read; leases: each remote's canary in the copy (the release, when it started), by remote
 * @typedef {{ at: number, revision: bigint, action: string }} Commit
 * @typedef {{ kind: string, node?: string, from: number, to: number }} Fault  node: the one node it hit; none for
 *   the database (every node); to: Infinity for a node killed for good
 */

/**
 * Each of `remotes`' canaries in the copy at `dir`, with its lease's epoch.
 * @param {string} dir
 * @param {readonly string[]} remotes
 */
function leasesIn(dir, remotes) {
  /** @type {Record<string, { id: string, startedAt: string, epoch: number }>} */
  const leases = {};
  for (const remote of remotes) {
    const { canary } = readCanary(storeLayout(dir, remote));
    if (canary) leases[remote] = { id: canary.id, startedAt: canary.startedAt, epoch: canary.lease?.epoch ?? 0 };
  }
  return leases;
}

/**
 * A history being recorded: samples each node's copy every SAMPLE_MS until stopped, and records faults.
 * @param {{ name: string, copy: string }[]} nodes
 * @param {readonly string[]} remotes  whose canaries' leases to follow
 */
function recordHistory(nodes, remotes) {
  /** @type {Sample[]} */
  const samples = [];
  /** @type {Fault[]} */
  const faults = [];
  const sample = () => {
    const at = Date.now();
    for (const node of nodes) {
      const revision = readSnapshotStatus(node.copy)?.revision;
      samples.push({
        at,
        node: node.name,
        revision: revision === undefined ? undefined : BigInt(revision),
        leases: leasesIn(node.copy, remotes),
      });
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    samples,
    faults,
    /**
     * A fault from now; the function it returns ends it (never called: it lasts to the end).
     * @param {string} kind
     * @param {string} [node]
     */
    fault(kind, node) {
      /** @type {Fault} */
      const fault = { kind, ...(node === undefined ? {} : { node }), from: Date.now(), to: Infinity };
      faults.push(fault);
      return () => {
        fault.to = Date.now();
      };
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * How much of [from, to] no fault that hits `node` covers (ms).
 * @param {Fault[]} faults
 * @param {string} node
 * @param {number} from
 * @param {number} to
 */
function healthyTime(faults, node, from, to) {
  const covering = faults
    .filter((fault) => fault.node === undefined || fault.node === node)
    .map((fault) => [Math.max(fault.from, from), Math.min(fault.to, to)])
    .filter(([start, end]) => /** @type {number} */ (start) < /** @type {number} */ (end))
    .sort((a, b) => /** @type {number} */ (a[0]) - /** @type {number} */ (b[0]));
  let covered = 0;
  let reached = from;
  for (const [start, end] of /** @type {[number, number][]} */ (covering)) {
    covered += Math.max(0, end - Math.max(start, reached));
    reached = Math.max(reached, end);
  }
  return to - from - covered;
}

/**
 * What broke the invariants, and each node's worst time to a commit.
 * @param {{ samples: Sample[], commits: Commit[], faults: Fault[], convergeMs?: number, releaseMs?: number }} history
 * @returns {{ problems: string[], worstMs: Record<string, number>, worstCommit: Record<string, Commit>,
 *   worstReleaseMs: Record<string, number>, unseen: number }} worstMs: of the healthy time from a change (not a
 *   release) to the first sample that had it; worstCommit: the change it was (for the report); worstReleaseMs: the
 *   same of releases; unseen: commits a node killed for good never had (not problems)
 */
function checkHistory({ samples, commits, faults, convergeMs = CONVERGE_MS, releaseMs = RELEASE_MS }) {
  /** @type {string[]} */
  const problems = [];
  /** @type {Record<string, number>} */
  const worstMs = {};
  /** @type {Record<string, Commit>} */
  const worstCommit = {};
  /** @type {Record<string, number>} */
  const worstReleaseMs = {};
  let unseen = 0;
  /** @type {Map<string, Sample[]>} */
  const byNode = new Map();
  for (const sample of [...samples].sort((a, b) => a.at - b.at)) {
    byNode.set(sample.node, [...(byNode.get(sample.node) ?? []), sample]);
  }
  for (const [node, seen] of byNode) {
    worstMs[node] = 0;
    worstReleaseMs[node] = 0;
    /** @type {Sample | undefined} */
    let last;
    /** @type {Map<string, number>} the last epoch seen of each canary (a remote's, of a release, started then) */
    const epochs = new Map();
    for (const sample of seen) {
      for (const [remote, { id, startedAt, epoch }] of Object.entries(sample.leases ?? {})) {
        const key = JSON.stringify([remote, id, startedAt]);
        const before = epochs.get(key) ?? 0;
        if (epoch < before) {
          problems.push(
            `${node} had ${remote}'s canary of ${id} go back from lease ${before} to ${epoch} at ${iso(sample.at)}: ` +
              'a write after its lease was lost',
          );
        }
        epochs.set(key, Math.max(before, epoch));
      }
      if (sample.revision === undefined) continue;
      if (last?.revision !== undefined && sample.revision < last.revision) {
        problems.push(`${node} went back from revision ${last.revision} to ${sample.revision} at ${iso(sample.at)}`);
      }
      last = sample;
    }
    const end = seen.at(-1)?.at ?? 0;
    for (const commit of commits) {
      const release = commit.action.startsWith('release ');
      const bound = release ? releaseMs : convergeMs;
      // Before the history began: nothing shows when the node had it.
      if (commit.at < (seen[0]?.at ?? Infinity)) continue;
      const had = seen.find((sample) => sample.at >= commit.at && (sample.revision ?? -1n) >= commit.revision);
      if (!had) {
        // Not yet due when the history ended, or due only in time the node was down for good: not a problem.
        if (healthyTime(faults, node, commit.at, Math.max(commit.at, end)) <= bound + SAMPLE_MS) unseen += 1;
        else problems.push(`${node} never had revision ${commit.revision} (${commit.action}, ${iso(commit.at)})`);
        continue;
      }
      const took = healthyTime(faults, node, commit.at, had.at);
      if (release) worstReleaseMs[node] = Math.max(worstReleaseMs[node] ?? 0, took);
      else if (took > (worstMs[node] ?? 0)) {
        worstMs[node] = took;
        worstCommit[node] = commit;
      }
      if (took > bound + SAMPLE_MS) {
        problems.push(
          `${node} had revision ${commit.revision} (${commit.action}, ${iso(commit.at)}) ${took} ms into its ` +
            `healthy time, past ${bound} ms`,
        );
      }
    }
  }
  return { problems, worstMs, worstCommit, worstReleaseMs, unseen };
}

/** @param {number} at */
const iso = (at) => new Date(at).toISOString();

/**
 * A history's report: the faults, the changes, and each node's worst time to a commit.
 * @param {{ commits: Commit[], faults: Fault[] }} history
 * @param {ReturnType<typeof checkHistory>} checked
 */
function historyReport({ commits, faults }, checked) {
  const start = Math.min(...commits.map((commit) => commit.at), ...faults.map((fault) => fault.from));
  const at = (/** @type {number} */ time) => `+${((time - start) / 1000).toFixed(1)} s`;
  return [
    `${commits.length} changes committed, ${faults.length} faults:`,
    ...faults.map(
      (fault) =>
        `  ${fault.kind}${fault.node ? ` (${fault.node})` : ''}: ${at(fault.from)} to ${
          fault.to === Infinity ? 'the end' : at(fault.to)
        }`,
    ),
    'worst time to a change, and to a release (its files downloaded first), not counting faults:',
    ...Object.entries(checked.worstMs).map(([node, ms]) => {
      const commit = checked.worstCommit[node];
      const which = commit ? ` (revision ${commit.revision}, ${commit.action}, at ${at(commit.at)})` : '';
      return `  ${node} ${ms} ms${which}; a release ${checked.worstReleaseMs[node] ?? 0} ms`;
    }),
    `problems: ${checked.problems.length === 0 ? 'none' : checked.problems.join('; ')}`,
  ].join('\n');
}

module.exports = { recordHistory, checkHistory, historyReport, healthyTime, CONVERGE_MS };
