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

/**
 * A Module Federation runtime plugin of the shell: the documents enforce Trusted Types, and the runtime adds remote
 * entries and preloaded chunks as <script> elements with a plain string for src, which the browser refuses. This
 * builds those elements with src set through the shell's policy; the runtime attaches and awaits them as its own.
 * Without Trusted Types it leaves the runtime's own element.
 */
export default function trustedScriptUrls(): ModuleFederationRuntimePlugin {
  return {
    name: 'nativegtm-trusted-script-urls',
    createScript({ url, attrs }) {
      const scriptUrls = scriptUrlPolicy();
      if (!scriptUrls) return undefined;
      const script = document.createElement('script');
      script.type = attrs?.['type'] === 'module' ? 'module' : 'text/javascript';
      // The runtime applies its attributes only to an element it made itself.
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (name === 'src' || name === 'type') continue;
        if (name === 'async' || name === 'defer') script[name] = Boolean(value);
        else script.setAttribute(name, String(value));
      }
      script.src = scriptUrls.createScriptURL(url) as string;
      return script;
    },
  };
}
