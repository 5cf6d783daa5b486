// Copies a folder store (RELEASES_DIR) into a store on PostgreSQL and object storage, once, when a site moves to many
// nodes: every release with its files and record as they were (who published it, when), the gates' results, the
// history of what was live, and the canaries that ended. Safe to run again: what is there already is left as it is,
// so a copy cut off half-way is finished by the next run, and a second run changes nothing.
const path = require('node:path');
const { folderBackend } = require('../folderBackend');
const { storeLayout } = require('../layout');
const { StoreRefusal } = require('../storeRefusal');
const { uploadRelease } = require('./postgresBackend');

/**
 * @param {{ dir: string, remote: string, backend: import('./postgresBackend').PostgresBackend }} options
 * @returns {Promise<{ releases: number, history: number, gates: number, canaries: number }>} what it copied
 */
async function copyFolderRemote({ dir, remote, backend }) {
  const folder = folderBackend(dir, remote);
  const source = await folder.read((state) => ({
    releases: state.releases(),
    gates: state.releases().flatMap((record) => {
      const gate = state.gate(record.id);
      return gate ? [{ id: record.id, gate }] : [];
    }),
    history: state.history(),
    pointer: state.pointer(),
    canary: state.canary(),
    ended: state.endedCanaries(),
  }));
  if (source.canary.canary || source.canary.problem) {
    throw new StoreRefusal(`a canary of ${remote} is running in ${dir}: end it before copying the store`);
  }
  if (source.pointer.problem) throw new StoreRefusal(`${remote} in ${dir}: ${source.pointer.problem}`);
  const copied = { releases: 0, history: 0, gates: 0, canaries: 0 };
  const known = await backend.read((state) => new Set(state.releases().map((record) => record.id)));
  for (const record of source.releases) {
    if (known.has(record.id)) continue;
    // Files first, then the record, as a publish does.
    const files = await uploadRelease(backend.objects, remote, record.id, storeLayout(dir, remote).release(record.id));
    const added = await backend.change(`copy ${remote} ${record.id} from ${path.resolve(dir)}`, async (state) => {
      if (state.record(record.id)) return false;
      state.addRelease(record, files);
      return true;
    });
    if (added) copied.releases += 1;
  }
  await backend.change(`copy ${remote} from ${path.resolve(dir)}`, async (state) => {
    for (const { id, gate } of source.gates) {
      if (!state.gate(id)) {
        state.writeGate(id, gate);
        copied.gates += 1;
      }
    }
    // The history and the canaries as one: copied whole into a remote that has none, or not at all.
    if (state.history().length === 0) {
      for (const change of source.history) state.changeLive(change);
      copied.history = source.history.length;
      // The pointer is the truth where a history line was lost.
      if (source.pointer.id && source.pointer.id !== source.history.at(-1)?.id) state.setLive(source.pointer.id);
    }
    if (state.endedCanaries().length === 0) {
      for (const ended of source.ended) state.recordEnd(ended);
      copied.canaries = source.ended.length;
    }
  });
  return copied;
}

module.exports = { copyFolderRemote };
