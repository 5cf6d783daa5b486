// Replaced at build time (DefinePlugin) with an id that is new for every build of a package. A remote re-exports it
// from its exposed module; its server-rendered HTML carries the same id, so the shell hydrates that HTML only with
// the JavaScript of the build that rendered it (see shell/src/screens/PageSlot.tsx).
declare const __NATIVEGTM_BUILD_ID__: string | undefined;

export const buildId: string = typeof __NATIVEGTM_BUILD_ID__ === 'string' ? __NATIVEGTM_BUILD_ID__ : 'development';
