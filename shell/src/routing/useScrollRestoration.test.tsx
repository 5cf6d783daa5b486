import { act, screen } from '@testing-library/react';
import type { PageComponent, RemoteName } from '@nativegtm/shared';
import { pageModule } from '../testing/pageModule';
import { renderShellAt } from '../testing/renderShellAt';

const pages = new Map<RemoteName, ReturnType<typeof pageModule>>();
const load = (name: RemoteName) => {
  const Page: PageComponent = () => (
    <main id="main-content">
      <h1>{name} page</h1>
      <h2 id="apply">Apply</h2>
    </main>
  );
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

  it('leaves the first load to the browser, and restores the position after a reload', async () => {
    const first = await at('/employers');
    expect(window.scrollTo).not.toHaveBeenCalled();
    y = 900;
    window.dispatchEvent(new Event('pagehide'));
    first.unmount();

    y = 0;
    await at('/employers'); // the same entry, reloaded
    expect(y).toBe(900);
  });
});
