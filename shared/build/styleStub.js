// Global stylesheets (tokens, base) have no exports; tests only need the import to succeed.
module.exports = {};
