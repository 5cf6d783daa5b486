import { act, screen, waitFor } from '@testing-library/react';
import { useSearchParams } from 'react-router-dom';
import type { PageComponent, RemoteName } from '@nativegtm/design-system';
import { pageModule } from '../testing/pageModule';
import { renderShellAt } from '../testing/renderShellAt';

const pages = new Map<RemoteName, ReturnType<typeof pageModule>>();
const load = (name: RemoteName) => {
  const Page: PageComponent = () => {
    const [params] = useSearchParams();
    const jobs = Number(params.get('jobs') ?? 0);
    return (
      <main id="main-content">
        <h1>{name} page</h1>
        <h2 id="apply">Apply</h2>
        <ul>
          {Array.from({ length: jobs }, (_, index) => (
            <li key={index}>Job {index + 1}</li>
          ))}
        </ul>
      </main>
    );
  };
  if (!pages.has(name)) pages.set(name, pageModule(Page));
  return Promise.resolve(pages.get(name)!);
};

describe('the scroll position across client-side navigation', () => {
  let y = 0;
  beforeEach(() => {
    y = 0;
    sessionStorage.clear();
    Object.defineProperty(window, 'scrollY', { configurable: true, get: () => y });
    window.scrollTo = jest.fn((_x: number, top: number) => {
      y = top;
    }) as unknown as typeof window.scrollTo;
    Element.prototype.scrollIntoView = jest.fn();
  });

  async function at(path: string) {
    const view = renderShellAt(path, { load });
    await screen.findByRole('heading', { level: 1 });
    return view;
  }

  it('starts a new page at the top, and Back returns to where the visitor was', async () => {
    const { history } = await at('/');
    y = 700;
    act(() => history.push('/employers'));
    await screen.findByRole('heading', { name: 'employers page' });
    expect(y).toBe(0);

    y = 120;
    act(() => history.go(-1));
    await screen.findByRole('heading', { name: 'candidates page' });
    expect(y).toBe(700);
    act(() => history.go(1));
    await screen.findByRole('heading', { name: 'employers page' });
    expect(y).toBe(120);
  });

  it('stays put when the navigation asked to keep the position (a filter)', async () => {
    const { history } = await at('/featured-jobs');
    y = 300;
    act(() => history.push('/featured-jobs?type=Remote', null, { preventScrollReset: true }));
    expect(y).toBe(300);
    expect(window.scrollTo).not.toHaveBeenCalled();
  });

  it('scrolls to the element a #hash names, and to the top when there is none', async () => {
    const { history } = await at('/');
    y = 500;
    act(() => history.push('/coming-soon#apply'));
    await screen.findByRole('heading', { name: 'comingSoon page' });
    expect(jest.mocked(Element.prototype.scrollIntoView).mock.contexts).toEqual([
      screen.getByRole('heading', { name: 'Apply' }),
    ]);
    act(() => history.push('/employers#nothing-here'));
    await screen.findByRole('heading', { name: 'employers page' });
    expect(y).toBe(0);
    expect(Element.prototype.scrollIntoView).toHaveBeenCalledTimes(1);
  });

  it('leaves a reload to the browser, and still restores positions remembered before it', async () => {
    const before = await at('/'); // the first entry of a memory history is keyed 'default'
    expect(window.history.scrollRestoration).toBe('manual');
    y = 700;
    act(() => before.history.push('/employers'));
    await screen.findByRole('heading', { name: 'employers page' });
    window.dispatchEvent(new Event('pagehide'));
    // The browser restores the reloaded document's position itself, as it paints the server's HTML.
    expect(window.history.scrollRestoration).toBe('auto');
    before.unmount();

    // The reloaded document, on the same history entries: nothing scrolled by the shell, then Back.
    jest.mocked(window.scrollTo).mockClear();
    y = 40;
    const { history } = renderShellAt(['/', '/employers'], { load });
    await screen.findByRole('heading', { name: 'employers page' });
    window.dispatchEvent(new Event('pageshow'));
    expect(window.history.scrollRestoration).toBe('manual');
    expect(window.scrollTo).not.toHaveBeenCalled();
    act(() => history.go(-1));
    await screen.findByRole('heading', { name: 'candidates page' });
    expect(y).toBe(700);
  });

  it('restores a position on Back once the page has rendered that entry again (a filter that shortened the list)', async () => {
    // The window cannot scroll past the end of the page: here each job is 100 px.
    window.scrollTo = jest.fn((_x: number, top: number) => {
      y = Math.min(top, document.querySelectorAll('li').length * 100);
    }) as unknown as typeof window.scrollTo;
    const { history } = await at('/featured-jobs?jobs=20');
    expect(document.querySelectorAll('li')).toHaveLength(20);
    y = 1500;
    act(() => history.push('/featured-jobs?jobs=2', null, { preventScrollReset: true }));
    await waitFor(() => expect(document.querySelectorAll('li')).toHaveLength(2));
    y = 200; // the browser clamps the position to the shorter page

    act(() => history.go(-1));
    await waitFor(() => expect(document.querySelectorAll('li')).toHaveLength(20));
    await waitFor(() => expect(y).toBe(1500));
  });

  it('ignores a #hash that is not a valid id', async () => {
    const { history } = await at('/');
    y = 500;
    act(() => history.push('/coming-soon#100%'));
    await screen.findByRole('heading', { name: 'comingSoon page' });
    expect(y).toBe(0);
  });
});
