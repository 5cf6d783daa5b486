import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useSearchParams } from 'react-router-dom';
import { useDocumentTitle, type PageComponent, type PageModule, type RemoteName } from '@nativegtm/design-system';
import { pageModule } from '../testing/pageModule';
import { renderShellAt } from '../testing/renderShellAt';
import { SKIP_LINK_HTML } from './useSkipLink';

/** A page as a remote would ship it: its own title, a main landmark with an h1, a link on and a query control. */
function pageNamed(name: RemoteName): PageComponent {
  return function Page() {
    useDocumentTitle(`${name} screen`);
    const [params, setParams] = useSearchParams();
    return (
      <>
        <header>
          <Link to="/employers">Employers</Link>
        </header>
        <main id="main-content">
          <h1>{name} page</h1>
          <button type="button" onClick={() => setParams({ n: String(Number(params.get('n') ?? 0) + 1) })}>
            Filter
          </button>
        </main>
      </>
    );
  };
}

// One component per remote, as the page loader caches them: a new component on every load would remount the page.
const pages = new Map<RemoteName, PageModule>();
const load = (name: RemoteName) => {
  if (!pages.has(name)) pages.set(name, pageModule(pageNamed(name)));
  return Promise.resolve(pages.get(name)!);
};

function renderAt(path: string) {
  // index.html's first element.
  document.body.innerHTML = SKIP_LINK_HTML;
  return renderShellAt(path, { load });
}

const liveRegion = () => document.querySelector('[aria-live="polite"]');

describe('keyboard and screen-reader support around every page', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('offers a skip link as the first Tab stop, which moves focus to the main landmark', async () => {
    renderAt('/');
    await screen.findByRole('heading', { name: 'candidates page' });

    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main-content');

    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Filter' })).toHaveFocus();
  });

  it('leaves focus alone and announces nothing on the first page load', async () => {
    renderAt('/');
    await screen.findByRole('heading', { name: 'candidates page' });
    expect(document.body).toHaveFocus();
    expect(liveRegion()).toBeEmptyDOMElement();
  });

  it('after navigation, focuses the new h1 and announces the new title', async () => {
    renderAt('/');
    await screen.findByRole('heading', { name: 'candidates page' });

    await userEvent.click(screen.getByRole('link', { name: 'Employers' }));
    const heading = await screen.findByRole('heading', { name: 'employers page' });
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('tabindex', '-1');
    expect(document.title).toBe('employers screen · NativeGTM');
    await waitFor(() => expect(liveRegion()).toHaveTextContent('employers screen · NativeGTM'));
  });

  it('announces the 404 page and focuses its heading', async () => {
    const { history } = renderAt('/');
    await screen.findByRole('heading', { name: 'candidates page' });
    act(() => history.push('/nowhere'));
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toHaveFocus();
    await waitFor(() => expect(liveRegion()).toHaveTextContent('Page not found · NativeGTM'));
  });

  it('keeps focus where it is when only the query changes (a filter on the same page)', async () => {
    const { navigation } = renderAt('/featured-jobs');
    await screen.findByRole('heading', { name: 'jobs page' });
    const filter = screen.getByRole('button', { name: 'Filter' });

    await userEvent.click(filter);
    await userEvent.click(filter);
    await waitFor(() => expect(navigation.state.location.search).toBe('?n=2'));
    expect(filter).toHaveFocus();
    expect(liveRegion()).toBeEmptyDOMElement();
  });
});
