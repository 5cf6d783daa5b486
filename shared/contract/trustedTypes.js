// Trusted Types: the documents' CSP makes every script URL the page's code assigns pass through a named policy, so
// a DOM XSS sink in any remote's code cannot load or run a script from a plain string. The policies are the ones the
// site's own code creates, by name; the servers allow exactly these, the build and the shell create them.
//
// One name for every webpack runtime (the shell's and each remote's, built alike), with 'allow-duplicates' because
// each remote's runtime creates it again, and a remote that is retried runs its entry again.

/** The policies, by what creates them. */
const trustedTypesPolicies = {
  /** webpack's chunk loading in every build (output.trustedTypes): script URLs of the build's own chunks. */
  webpack: 'nativegtm-webpack',
  /** The shell's Module Federation runtime plugin: remote entries and the chunks the runtime preloads. */
  federation: 'nativegtm-federation',
  /** The paint-first boot script: the application's scripts the document lists. */
  boot: 'nativegtm-boot',
};

/**
 * The development server's own, allowed only in the documents of a browser that overrides a remote with it
 * (overrides.js): its error overlay writes HTML through this policy (webpack-dev-server's
 * client.overlay.trustedTypesPolicyName).
 */
const devServerPolicies = { overlay: 'nativegtm-dev-overlay' };

/**
 * The CSP directives that enforce them.
 * @param {readonly string[]} [more] policies allowed on top (an override's dev server)
 */
function trustedTypesDirectives(more = []) {
  return [
    "require-trusted-types-for 'script'",
    `trusted-types ${[...Object.values(trustedTypesPolicies), ...more].join(' ')} 'allow-duplicates'`,
  ];
}

module.exports = { trustedTypesPolicies, devServerPolicies, trustedTypesDirectives };
