// The renewals of a running canary's lease (../../canaryLease.js), apart from the canary's state: a renewal is no
// change of the store (no revision, no audit line, no notification), so it has a row of its own that nodes do not copy.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.up = (pgm) => {
  pgm.createTable('canary_leases', {
    remote: { type: 'text', primaryKey: true },
    // { id, startedAt, epoch, expiresAt }: it renews the lease of that canary and epoch alone.
    renewal: { type: 'jsonb', notNull: true },
  });
  // Every change reads this table beside canaries: a role granted canaries before it existed (the deploy API's, by
  // grant-deploy-api) gets the same rights on it, so that the API keeps working between the migration and its next
  // grant.
  pgm.sql(`DO $$
DECLARE grant_row record;
BEGIN
  FOR grant_row IN
    SELECT grantee, privilege_type FROM information_schema.role_table_grants
    WHERE table_schema = current_schema() AND table_name = 'canaries' AND grantee NOT IN (current_user, 'PUBLIC')
  LOOP
    EXECUTE format('GRANT %s ON canary_leases TO %I', grant_row.privilege_type, grant_row.grantee);
  END LOOP;
END $$;`);
};

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.down = (pgm) => {
  pgm.dropTable('canary_leases');
};
