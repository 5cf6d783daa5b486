import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';
import { trustedTypesPolicies } from '@nativegtm/contract/trustedTypes';
import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';
import { fetchManifest, integrityFor } from './integrityLists';
import { noteFailedLoad } from './refusedFiles';

/** The part of the Trusted Types API used here (TypeScript's DOM library does not describe it yet). */
interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}
interface TrustedTypesFactory {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy;
}

let policy: ScriptUrlPolicy | null | undefined;

/**
 * The shell's policy for the script URLs the federation runtime loads: only http(s) URLs pass (which origins, the
 * CSP's script-src says). Created once, on first use; null in a browser without Trusted Types.
 */
function scriptUrlPolicy(): ScriptUrlPolicy | null {
  if (policy === undefined) {
    const factory = (globalThis as { trustedTypes?: TrustedTypesFactory }).trustedTypes;
    policy = factory
      ? factory.createPolicy(trustedTypesPolicies.federation, {
          createScriptURL(url) {
            const { protocol } = new URL(url, document.baseURI);
            if (protocol !== 'https:' && protocol !== 'http:') throw new TypeError(`Not a script URL: ${url}`);
            // Unchanged: the runtime finds a script it already added by comparing its src with this URL.
            return url;
          },
        })
      : null;
  }
  return policy;
}

/** The value in a production build, where files are checked; none in development. */
const productionOnly = (value: string): string | undefined =>
  process.env.NODE_ENV === 'production' ? value : undefined;

/** A URL of another origin than the page's: a remote's. */
const otherOrigin = (url: string) => new URL(url, document.baseURI).origin !== location.origin;

/**
 * A Module Federation runtime plugin of the shell, for the scripts and stylesheets the runtime adds for a remote (its
 * entry, the preloads of its page's chunks) and the manifest it fetches:
 * - each carries the integrity the remote's list names (integrityLists.ts), fetched beside the manifest: a file the
 *   list does not name is refused, never loaded unchecked. A preload carries the same integrity as the script or
 *   stylesheet the remote's runtime adds later, or the browser would not use it;
 * - the documents enforce Trusted Types, and the runtime sets a script's src with a plain string, which the browser
 *   refuses: this builds those elements with src set through the shell's policy;
 * - a remote's files are requested with CORS (`crossorigin="anonymous"`, which every remote allows): the browser checks
 *   the integrity of no other response of another origin, and hides a script's errors from the shell's field data
 *   ("Script error.", no file, no stack). The remotes' own chunk loading does the same (@nativegtm/build's
 *   `crossOriginLoading` and SubresourceIntegrityPlugin).
 * The runtime attaches and awaits these elements as its own; for the rest it makes its own.
 */
export default function trustedScriptUrls(): ModuleFederationRuntimePlugin {
  return {
    name: 'nativegtm-trusted-script-urls',
    fetch(manifestUrl, init, remoteInfo) {
      if (!remoteInfo) return undefined;
      return fetchManifest(manifestUrl, init, remoteInfo.name).catch((error: unknown) => {
        const integrity = integrityFor(remoteInfo.name, manifestUrl);
        if (integrity !== undefined) noteFailedLoad(manifestUrl, integrity);
        throw error;
      });
    },
    createScript({ url, attrs, remoteInfo }) {
      const scriptUrls = scriptUrlPolicy();
      const cors = otherOrigin(url);
      // A script the runtime adds for no remote is none of the site's: refused in a production build.
      const integrity = remoteInfo ? integrityFor(remoteInfo.name, url) : productionOnly(REFUSED_INTEGRITY);
      if (!scriptUrls && !cors && integrity === undefined) return undefined;
      const script = document.createElement('script');
      script.type = attrs?.['type'] === 'module' ? 'module' : 'text/javascript';
      // The runtime applies its attributes only to an element it made itself.
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (name === 'src' || name === 'type') continue;
        if (name === 'async' || name === 'defer') script[name] = Boolean(value);
        else script.setAttribute(name, String(value));
      }
      if (integrity !== undefined) script.setAttribute('integrity', integrity);
      if (cors) script.crossOrigin = 'anonymous';
      script.src = (scriptUrls ? scriptUrls.createScriptURL(url) : url) as string;
      return script;
    },
    createLink({ url, attrs, remoteInfo }) {
      const rel = attrs?.['rel'];
      const loads =
        attrs?.['as'] === 'script' || attrs?.['as'] === 'style' || rel === 'stylesheet' || rel === 'modulepreload';
      const integrity = !loads
        ? undefined
        : remoteInfo
          ? integrityFor(remoteInfo.name, url)
          : productionOnly(REFUSED_INTEGRITY);
      if (!loads || (integrity === undefined && (attrs?.['as'] !== 'script' || !otherOrigin(url)))) return undefined;
      const link = document.createElement('link');
      for (const [name, value] of Object.entries(attrs ?? {})) link.setAttribute(name, String(value));
      if (integrity !== undefined) link.setAttribute('integrity', integrity);
      if (otherOrigin(url)) link.crossOrigin = 'anonymous';
      link.href = url;
      return link;
    },
  };
}
