// `npm run releases -- <remote> [--prune [--keep <n>]]`: the remote's releases, oldest first: id, when, who published
// it, from which commit, the gate's result, which is live; then the changes of what is live and who made each, newest
// first; then its canaries, the running one first, with their steps and verdicts and who ended each; then the audit:
// every change of its store, who made it and from where.
// --prune removes all but the newest n (10), never the live or the previous one.
const { wholeNumberOption } = require('@nativegtm/server/commandLine');
const { parseReleaseCommandLine, runReleaseCommand, releaseStoreOf, TO_OPTION } = require('../releases/commandLine');
const { DEFAULT_KEEP } = require('@nativegtm/store/operations');

const USAGE = 'npm run releases -- <remote> [--prune [--keep <n>]] [--to <deploy API URL>]';

runReleaseCommand(USAGE, async () => {
  const {
    remote,
    options,
    store: local,
  } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: "Lists the remote's releases; --prune removes all but the newest (never the live or previous one).",
    min: 1,
    options: { prune: { type: 'boolean' }, keep: { type: 'string' }, ...TO_OPTION },
  });
  const store = releaseStoreOf(remote, local, options.to);
  const keep = wholeNumberOption(options.keep, '--keep') ?? DEFAULT_KEEP;
  if (options.prune) {
    const { removed, kept } = await store.prune({ keep });
    console.log(
      `${remote}: removed ${removed.length} release(s)${removed.length ? ` (${removed.join(', ')})` : ''}; kept ${kept.length}.`,
    );
  }
  const { releases, problem } = await store.releases();
  if (problem) console.log(`warning: ${problem}; servers keep the last good release`);
  if (releases.length === 0) {
    console.log(`${remote}: no releases in ${store.where} (its server serves dist/).`);
    return;
  }
  const rows = releases.map((release) => [
    release.live ? 'live' : release.previous ? 'previous' : '',
    release.id,
    release.created,
    release.by ?? '-',
    release.commit ? `${release.commit.slice(0, 12)}${release.dirty ? ' +changes' : ''}` : '-',
    !release.gate ? 'not run' : release.gate.skipped ? 'SKIPPED' : release.gate.passed ? 'passed' : 'FAILED',
  ]);
  const header = ['', 'id', 'created', 'by', 'commit', 'gate'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, column) => String(cell).padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  await printChanges(store);
  await printCanaries(store);
  await printAudit(store);
});

/** How many changes of what is live the listing shows: the latest, which are the ones anyone asks about. */
const CHANGES_SHOWN = 10;

/**
 * The changes of what is live, newest first: when, which, from which, and who made each.
 * @param {import('../releases/deployClient').ReleaseStore} store
 */
async function printChanges(store) {
  const changes = (await store.changes()).reverse();
  if (changes.length === 0) return;
  console.log('\nchanges of what is live (newest first):');
  for (const change of changes.slice(0, CHANGES_SHOWN)) {
    const from = change.from ? ` (was ${change.from})` : '';
    console.log(`  ${change.at}  ${change.action.padEnd(8)}  ${change.id}${from}  by ${change.by ?? 'unknown'}`);
  }
  if (changes.length > CHANGES_SHOWN) console.log(`  … and ${changes.length - CHANGES_SHOWN} earlier`);
}

/** How many of the audit's entries the listing shows, newest first. */
const AUDIT_SHOWN = 15;

/**
 * Every change of the remote's store, newest first: when, what, who (a token and its team, a CI job's identity, or a
 * user and host) and from which address. A canary's lease renewals are counted, not listed: a running canary renews
 * every few seconds.
 * @param {import('../releases/deployClient').ReleaseStore} store
 */
async function printAudit(store) {
  const entries = (await store.audit()).reverse();
  if (entries.length === 0) return;
  const renewals = entries.filter((entry) => entry.action.endsWith(' renew'));
  const shown = entries.filter((entry) => !renewals.includes(entry));
  console.log('\nwho changed what (newest first):');
  for (const { at, action, actor } of shown.slice(0, AUDIT_SHOWN)) {
    const from = actor.network ? ` from ${actor.network}` : '';
    const commit = actor.commit ? ` at commit ${actor.commit.slice(0, 12)}` : '';
    console.log(`  ${at}  ${action}  by ${actor.by}${commit}${from}`);
  }
  const earlier = shown.length - Math.min(shown.length, AUDIT_SHOWN);
  if (earlier > 0) console.log(`  … and ${earlier} earlier`);
  if (renewals.length > 0) console.log(`  (and ${renewals.length} renewals of a canary's lease)`);
}

/**
 * The running canary and the ones that ended (newest first): each step's share and verdict, and how it ended.
 * @param {import('../releases/deployClient').ReleaseStore} store
 */
async function printCanaries(store) {
  const { canary, problem } = await store.canary();
  const ended = (await store.endedCanaries()).reverse();
  if (!canary && !problem && ended.length === 0) return;
  /** @param {import('@nativegtm/store/canaryInStore').StepRecord[]} verdicts */
  const steps = (verdicts) => verdicts.map((step) => `${step.share} % ${step.verdict}`).join(', ') || 'none judged';
  console.log('\ncanaries:');
  if (problem) console.log(`  running  (cannot be read: ${problem})`);
  if (canary) {
    console.log(
      `  running  ${canary.id}  at ${canary.share} % of ${canary.steps.join(', ')} since ${canary.startedAt}; ` +
        `steps: ${steps(canary.verdicts)}`,
    );
  }
  for (const past of ended) {
    console.log(
      `  ${past.outcome}  ${past.id}  ${past.endedAt}: ${past.reason}; steps: ${steps(past.verdicts)}` +
        (past.by ? `; by ${past.by}` : ''),
    );
  }
}
