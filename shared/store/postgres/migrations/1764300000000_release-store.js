// The release store on PostgreSQL (../postgresBackend.js): what the folder store keeps in files, one remote's rows
// each, and an audit of every change. Run by `npm run store -- migrate` (../migrate.js), never at a server's start.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.up = (pgm) => {
  // Every change of any remote takes the next revision: a node says which it serves, and learns of newer ones.
  pgm.createSequence('store_revision');
  pgm.createTable('remotes', {
    remote: { type: 'text', primaryKey: true },
    // The revision of the remote's last change: a change commits only if it is still the one it began from.
    revision: { type: 'bigint', notNull: true, default: 0 },
    live: { type: 'text' },
  });
  const ofRelease = { remote: { type: 'text', notNull: true }, id: { type: 'text', notNull: true } };
  pgm.createTable(
    'releases',
    {
      ...ofRelease,
      record: { type: 'jsonb', notNull: true },
      // Each file's path, size and sha256: what a node checks every file it downloads against.
      files: { type: 'jsonb', notNull: true },
    },
    { constraints: { primaryKey: ['remote', 'id'] } },
  );
  pgm.createTable(
    'gates',
    { ...ofRelease, result: { type: 'jsonb', notNull: true } },
    {
      constraints: { primaryKey: ['remote', 'id'] },
    },
  );
  pgm.createTable(
    'preview_marks',
    { ...ofRelease, mark: { type: 'text', notNull: true } },
    {
      constraints: { primaryKey: ['remote', 'id', 'mark'] },
    },
  );
  pgm.createTable('live_changes', {
    seq: 'bigserial primary key',
    remote: { type: 'text', notNull: true },
    change: { type: 'jsonb', notNull: true },
  });
  pgm.createIndex('live_changes', ['remote', 'seq']);
  pgm.createTable('canaries', {
    remote: { type: 'text', primaryKey: true },
    state: { type: 'jsonb', notNull: true },
  });
  pgm.createTable('ended_canaries', {
    seq: 'bigserial primary key',
    remote: { type: 'text', notNull: true },
    ended: { type: 'jsonb', notNull: true },
  });
  pgm.createIndex('ended_canaries', ['remote', 'seq']);
  // Who made each change, and when: appended, never changed.
  pgm.createTable('audit', {
    seq: 'bigserial primary key',
    at: { type: 'timestamptz', notNull: true, default: pgm.func('now()') },
    remote: { type: 'text', notNull: true },
    action: { type: 'text', notNull: true },
    by: { type: 'text', notNull: true },
    revision: { type: 'bigint', notNull: true },
  });
  pgm.createIndex('audit', ['remote', 'seq']);
};

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.down = (pgm) => {
  for (const table of [
    'audit',
    'ended_canaries',
    'canaries',
    'live_changes',
    'preview_marks',
    'gates',
    'releases',
    'remotes',
  ])
    pgm.dropTable(table);
  pgm.dropSequence('store_revision');
};
