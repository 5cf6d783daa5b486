import * as runtimeCore from '@module-federation/runtime-core';
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';

/**
 * A Module Federation runtime plugin of the shell: publishes the shell's federation runtime on the global that
 * remotes built with `experiments.externalRuntime` read (`_FEDERATION_RUNTIME_CORE`), so a visitor downloads the
 * runtime once, with the shell, instead of once more in every remoteEntry.js.
 *
 * It does what `experiments.provideExternalRuntime` does, without its cost: in @module-federation/enhanced 2.9.2
 * that option adds a plugin that requires the CommonJS build of the runtime, a second copy beside the ES module one
 * the shell already runs (+20 KB gzip). This file imports the ES module build, the copy the shell runs.
 */
export default function provideFederationRuntime(): ModuleFederationRuntimePlugin {
  return {
    name: 'nativegtm-provide-federation-runtime',
    beforeInit(args) {
      const global = runtimeCore.Global as unknown as Record<string, unknown>;
      global._FEDERATION_RUNTIME_CORE = runtimeCore;
      global._FEDERATION_RUNTIME_CORE_FROM = { name: args.options.name, version: args.origin.version };
      return args;
    },
  };
}
