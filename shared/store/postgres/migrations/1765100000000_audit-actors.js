// The audit names who made each change in full (../../actor.js: a token's id and team, or a CI job's OIDC subject,
// repository and commit, and the network the deploy API read), and becomes append-only for every role: the deploy API
// runs with credentials its callers do not hold, but a role that can insert must still not be able to rewrite what
// was recorded. `by` stays: the one line every reader already shows.

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.up = (pgm) => {
  pgm.addColumn('audit', { actor: { type: 'jsonb' } });
  pgm.createFunction(
    'audit_append_only',
    [],
    { returns: 'trigger', language: 'plpgsql' },
    "BEGIN RAISE EXCEPTION 'the audit is append-only: % refused', TG_OP; END;",
  );
  pgm.createTrigger('audit', 'audit_no_update_or_delete', {
    when: 'BEFORE',
    operation: ['UPDATE', 'DELETE'],
    level: 'ROW',
    function: 'audit_append_only',
  });
  pgm.createTrigger('audit', 'audit_no_truncate', {
    when: 'BEFORE',
    operation: 'TRUNCATE',
    level: 'STATEMENT',
    function: 'audit_append_only',
  });
};

/** @param {import('node-pg-migrate').MigrationBuilder} pgm */
exports.down = (pgm) => {
  pgm.dropTrigger('audit', 'audit_no_truncate');
  pgm.dropTrigger('audit', 'audit_no_update_or_delete');
  pgm.dropFunction('audit_append_only', []);
  pgm.dropColumn('audit', 'actor');
};
