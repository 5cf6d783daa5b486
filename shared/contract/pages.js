// The registry of pages: one entry per page remote. Everything that knows about pages derives from this list: the
// shell/remote contract (remote names, paths), the shell's route table, the servers (npm start, the document server,
// the nginx generator, the CSP through remotes.json), the shell's shipped remotes.json, the jest projects and the
// integration tests' site. `npm run new-page -- <name> <route>` adds an entry together with the package.
//
// Plain CommonJS so that Node (servers, build) reads it as it is; the JSDoc `const` makes TypeScript see the literal
// values, so remote names and paths stay typed. Data only: browser bundles get it trimmed to what routing needs
// (@nativegtm/build's pagesLoader), and what derives from it lives in the modules beside it.
//
// remote:  the Module Federation name, also the remote's key in remotes.json (a JavaScript identifier)
// package: the npm workspace folder that builds and deploys it
// route:   the page's path on the site
// pathKey: the page's name in `paths` (@nativegtm/contract/sitePaths), which pages use for their links
// port:    where `npm start` (and `npm run dev`) serves it; the shell is on 3000
// title:   the title of its standalone preview ("<title> · NativeGTM")
// heading: the page's h1, which the integration tests wait for
const pages = /** @type {const} */ ([
  {
    remote: 'candidates',
    package: 'candidates-mfe',
    route: '/',
    pathKey: 'candidates',
    port: 3001,
    title: 'Candidates',
    heading: 'Land high-paying AI-native GTM jobs',
  },
  {
    remote: 'employers',
    package: 'employers-mfe',
    route: '/employers',
    pathKey: 'employers',
    port: 3002,
    title: 'Employers',
    heading: 'Hire Vetted AI-Native GTM Talent',
  },
  {
    remote: 'jobs',
    package: 'jobs-mfe',
    route: '/featured-jobs',
    pathKey: 'featuredJobs',
    port: 3003,
    title: 'Featured Jobs',
    heading: 'Featured Jobs',
  },
  {
    remote: 'comingSoon',
    package: 'coming-soon-mfe',
    route: '/coming-soon',
    pathKey: 'comingSoon',
    port: 3004,
    title: 'Coming Soon',
    heading: 'NativeGTM is Coming Soon',
  },
]);

/** @typedef {(typeof pages)[number]} Page */
/** @typedef {Page['remote']} RemoteName */

module.exports = { pages };
