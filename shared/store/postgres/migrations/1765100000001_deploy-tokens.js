// Deploy tokens (@nativegtm/deploy): each reaches one remote and some actions until it expires or is revoked. Only the
// SHA-256 of a token's secret is kept. Written by the operator's token commands; the deploy API only reads them.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.up = (pgm) => {
  pgm.createTable('deploy_tokens', {
    id: { type: 'text', primaryKey: true },
    remote: { type: 'text', notNull: true },
    actions: { type: 'text[]', notNull: true },
    team: { type: 'text', notNull: true },
    created: { type: 'timestamptz', notNull: true },
    expires: { type: 'timestamptz', notNull: true },
    revoked: { type: 'timestamptz' },
    created_by: { type: 'text', notNull: true },
    hash: { type: 'text', notNull: true },
  });
};

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.down = (pgm) => {
  pgm.dropTable('deploy_tokens');
};
