// The alias the server-render bundle resolves to the package's page module (shared/build/ssr.js).
declare module 'nativegtm-ssr-page' {
  const Page: import('../contracts').PageComponent;
  export default Page;
  export const meta: import('../contracts').PageMeta;
  export const buildId: string;
}
