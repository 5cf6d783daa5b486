// The files of a new page remote. Each is what the four existing remotes have, with the new page's names: a page
// that builds, renders on the server, hydrates in the shell, runs alone and has tests, for its team to fill in.

/** @param {{ name: string, packageName: string, remote: string, route: string, port: number, title: string, component: string, dependencies: Record<string, string>, devDependencies: Record<string, string> }} page */
function files(page) {
  const { packageName, remote, route, port, title, component, dependencies, devDependencies } = page;
  return {
    'package.json': `${JSON.stringify(
      {
        name: packageName,
        version: '1.0.0',
        private: true,
        description: `${title} page (${route}), a Module Federation remote.`,
        scripts: {
          build: 'nativegtm-webpack --mode production',
          start: 'nativegtm-serve-package',
          dev: 'nativegtm-webpack serve --mode development',
          test: 'jest',
        },
        exports: { './Page': './src/Page.tsx', './package.json': './package.json' },
        dependencies,
        devDependencies,
      },
      null,
      2,
    )}\n`,
    'webpack.config.js': `// The page's remote name, title and port come from the registry of pages (shared/contract/pages.js).
const { createRemoteConfig } = require('@nativegtm/build/webpack');

/**
 * @param {{ outputPath?: string } | undefined} env webpack's --env: outputPath builds somewhere else than dist/ (a
 *   release, docs/releasing.md)
 * @param {{ mode?: import('@nativegtm/build/webpack').Mode }} argv webpack's command line (--mode)
 */
module.exports = (env, argv) =>
  createRemoteConfig({ packageDir: __dirname, mode: argv.mode || 'production', outputPath: env?.outputPath });
`,
    'jest.config.js': `const { createJestProject } = require('@nativegtm/build/jest');

module.exports = createJestProject({ packageDir: __dirname, displayName: '${packageName}' });
`,
    'tsconfig.json': `${JSON.stringify(
      {
        extends: '../tsconfig.base.json',
        compilerOptions: {
          composite: true,
          emitDeclarationOnly: true,
          outDir: `../node_modules/.cache/tsc/${packageName}`,
        },
        include: ['src', '../shared/design-system/src/types'],
        references: [{ path: '../shared/contract' }, { path: '../shared/design-system' }],
      },
      null,
      2,
    )}\n`,
    'README.md': `# ${packageName}

The ${title} page (route \`${route}\`), a Module Federation remote named \`${remote}\`.

- **Exposes:** \`./Page\` (\`src/Page.tsx\`): the page component, its \`meta\` (\`src/meta.ts\`: title and description,
  which this team owns) and the build id, the contract the shell loads it by.
- **Shares** react, react-dom and \`@nativegtm/design-system\` with the shell; the router is the shell's (import \`Link\` and
  the rest of the router API from \`@nativegtm/design-system\`).
- **Builds** into \`dist/\`: \`mf-manifest.json\`, \`remoteEntry.js\`, content-hashed chunks, a standalone
  \`index.html\`, and \`ssr/\`: the page rendered to HTML for the shell's server (docs/server-composition.md).

## Work on it alone

\`\`\`sh
npm run dev -w ${packageName}      # this page alone on http://localhost:${port} with live reload
npm test -w ${packageName}         # its unit and component tests
npm run build -w ${packageName}    # production build into ${packageName}/dist
npm start -w ${packageName}        # serve ${packageName}/dist alone on port ${port}
\`\`\`

To see it inside the site, run \`npm start\` at the repository root. To deploy it, upload \`dist/\` and add its
entry to the deployed shell's \`remotes.json\` (docs/operating.md).
`,
    'src/index.ts': `// Async boundary: shared singletons are negotiated before the page's code runs (see shell/src/index.ts).
import('./bootstrap');
`,
    'src/bootstrap.tsx': `import { renderStandalone } from '@nativegtm/design-system/standalone';
import Page from './Page';

// This page alone, for its team: \`npm run dev\` in this folder (the shell never loads this file).
renderStandalone(Page);
`,
    'src/Page.tsx': `import type { PageComponent } from '@nativegtm/design-system';
import { ${component} } from './${component}';

/** What this remote exposes as './Page' (the contract in @nativegtm/design-system): the page, its meta and its build. */
const Page: PageComponent = ${component};
export default Page;
export { meta } from './meta';
export { buildId } from '@nativegtm/design-system/build-id';
`,
    'src/meta.ts': `import type { PageMeta } from '@nativegtm/design-system';

/** The page's title and description, in the document's head and in link previews. */
export const meta: PageMeta = {
  title: '${title}',
  description: '${title} at NativeGTM, the hiring marketplace for AI-native go-to-market talent.',
};
`,
    [`src/${component}.tsx`]: `import { ButtonLink, Footer, Hero, landingNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/design-system';
import { meta } from './meta';

export function ${component}() {
  useDocumentTitle(meta.title);
  return (
    <>
      <SiteHeader links={landingNavLinks} signIn={{ label: 'Sign In', to: paths.comingSoon }} />
      <main id="main-content">
        <Hero
          eyebrow="NativeGTM"
          title="${title}"
          lead={meta.description}
          bullets={['AI voice interviews', 'Rated skills', 'Introductions to companies hiring']}
          actions={<ButtonLink to={paths.comingSoon}>Get started</ButtonLink>}
        />
      </main>
      <Footer />
    </>
  );
}
`,
    [`src/${component}.test.tsx`]: `import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import Page, { meta } from './Page';

describe('${title} page', () => {
  it('has one h1, its title, and the site header and footer', () => {
    render(
      <MemoryRouter initialEntries={['${route}']}>
        <Page />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('${title}');
    expect(document.title).toBe(\`\${meta.title} · NativeGTM\`);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});
`,
  };
}

module.exports = { files };
