import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';
import { trustedTypesPolicies } from '@nativegtm/contract/trustedTypes';

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

/** A URL of another origin than the page's: a remote's. */
const otherOrigin = (url: string) => new URL(url, document.baseURI).origin !== location.origin;

/**
 * A Module Federation runtime plugin of the shell, for the scripts the runtime adds (remote entries, and the
 * preloads of a remote's chunks):
 * - the documents enforce Trusted Types, and the runtime sets a script's src with a plain string, which the browser
 *   refuses: this builds those elements with src set through the shell's policy;
 * - a remote's scripts are requested with CORS (`crossorigin="anonymous"`, which every remote allows), or the browser
 *   hides their errors from the shell's field data ("Script error.", no file, no stack). Their preloads are too, or
 *   the script would not use them; the remotes' own chunk loading does the same (@nativegtm/build's
 *   CorsScriptsPlugin). Stylesheets are left as they are: a server-rendered page links its own without CORS.
 * The runtime attaches and awaits these elements as its own; for the rest it makes its own.
 */
export default function trustedScriptUrls(): ModuleFederationRuntimePlugin {
  return {
    name: 'nativegtm-trusted-script-urls',
    createScript({ url, attrs }) {
      const scriptUrls = scriptUrlPolicy();
      const cors = otherOrigin(url);
      if (!scriptUrls && !cors) return undefined;
      const script = document.createElement('script');
      script.type = attrs?.['type'] === 'module' ? 'module' : 'text/javascript';
      // The runtime applies its attributes only to an element it made itself.
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (name === 'src' || name === 'type') continue;
        if (name === 'async' || name === 'defer') script[name] = Boolean(value);
        else script.setAttribute(name, String(value));
      }
      if (cors) script.crossOrigin = 'anonymous';
      script.src = (scriptUrls ? scriptUrls.createScriptURL(url) : url) as string;
      return script;
    },
    createLink({ url, attrs }) {
      if (attrs?.['as'] !== 'script' || !otherOrigin(url)) return undefined;
      const link = document.createElement('link');
      for (const [name, value] of Object.entries(attrs)) link.setAttribute(name, String(value));
      link.crossOrigin = 'anonymous';
      link.href = url;
      return link;
    },
  };
}
