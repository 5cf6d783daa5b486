import type { PageComponent, PageModule } from './contracts';
import { exposedPage, isRemoteName, remoteNames } from './contracts';

/*
 * Type-level checks of the contract between the shell and the remotes: `npm run typecheck` compiles this file, so a
 * shape that stops fitting fails the build. Each @ts-expect-error line MUST be an error; if the contract loosened so
 * that it compiled, tsc would report the unused directive.
 */
const meta = { title: 'Page', description: 'A page.' };
const fits: PageModule = { default: () => <main>page</main>, meta, buildId: 'build-1' };

// @ts-expect-error a module without its meta (title, description) does not fit: the server needs them
const noMeta: PageModule = { default: () => <main>page</main>, buildId: 'build-1' };

// @ts-expect-error a page that requires props the shell never passes does not fit
const needsProps: PageModule = { default: ({ jobId }: { jobId: string }) => <main>{jobId}</main>, meta, buildId: '1' };

// @ts-expect-error exposing something that is not a component does not fit
const notAComponent: PageModule = { default: 'CandidatesPage', meta, buildId: '1' };

// @ts-expect-error a named export instead of the default one does not fit
const namedExport: PageModule = { Page: () => null, meta, buildId: '1' };

// @ts-expect-error a page component cannot demand props either
const demanding: PageComponent = (props: { title: string }) => <h1>{props.title}</h1>;

describe('the remote contract', () => {
  it('names the four remotes and the exposed module the shell loads', () => {
    expect(remoteNames).toEqual(['candidates', 'employers', 'jobs', 'comingSoon']);
    expect(exposedPage).toBe('./Page');
    expect(isRemoteName('jobs')).toBe(true);
    expect(isRemoteName('admin')).toBe(false);
  });

  it('is exercised at the type level above', () => {
    expect([fits, noMeta, needsProps, notAComponent, namedExport, demanding]).toHaveLength(6);
  });
});
