// The renewals of a running canary's lease (../../canaryLease.js), apart from the canary's state: a renewal is no
// change of the store (no revision, no audit line, no notification), so it has a row of its own that nodes do not copy.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.up = (pgm) => {
  pgm.createTable('canary_leases', {
    remote: { type: 'text', primaryKey: true },
    // { id, startedAt, epoch, expiresAt }: it renews the lease of that canary and epoch alone.
    renewal: { type: 'jsonb', notNull: true },
  });
};

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.down = (pgm) => {
  pgm.dropTable('canary_leases');
};
