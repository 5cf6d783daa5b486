// Field data on PostgreSQL (@nativegtm/server/fieldData/postgresRecords.js): every node's records in one table,
// partitioned by day so that retention drops a day whole instead of deleting rows. The writers make each day's
// partition before its first records and drop those past the retention; this migration makes only the parent tables.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.up = (pgm) => {
  pgm.createTable(
    'field_records',
    {
      // When the record was received (its `t`): the partition key, and what every reader's window is on.
      at: { type: 'timestamptz', notNull: true },
      record: { type: 'jsonb', notNull: true },
    },
    { partition: { strategy: 'RANGE', columns: 'at' } },
  );
  pgm.createIndex('field_records', 'at');
  // Records a writer could not keep (its buffer was full while the database was down): a canary whose window they
  // fall in judges nothing, as it does on a folder store's drop markers.
  pgm.createTable('field_drops', {
    writer: { type: 'text', notNull: true },
    first: { type: 'timestamptz', notNull: true },
    latest: { type: 'timestamptz', notNull: true },
    records: { type: 'bigint', notNull: true },
  });
  pgm.createIndex('field_drops', ['latest']);
};

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.down = (pgm) => {
  pgm.dropTable('field_drops');
  pgm.dropTable('field_records', { cascade: true });
};
