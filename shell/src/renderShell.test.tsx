import { act, screen } from '@testing-library/react';
import type { PageModule } from '@nativegtm/shared';
import { renderShell } from './renderShell';
import { pageModule } from './testing/pageModule';

describe('renderShell', () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
    window.history.replaceState({}, '', '/employers');
  });

  it('resolves once the first route has settled, not before its page has loaded', async () => {
    let deliver: (page: PageModule) => void = () => undefined;
    const page = new Promise<PageModule>((resolve) => {
      deliver = resolve;
    });
    let settled = false;

    await act(async () => {
      void renderShell({ load: () => page, preload: jest.fn(), prefetch: jest.fn() }).then(() => {
        settled = true;
      });
    });
    expect(settled).toBe(false);

    await act(async () => deliver(pageModule(() => <h1>Employers page</h1>)));
    expect(settled).toBe(true);
    expect(await screen.findByRole('heading', { name: 'Employers page' })).toBeInTheDocument();
  });

  it('needs the #root element of index.html', () => {
    document.body.innerHTML = '';
    expect(() => renderShell({ load: jest.fn(), preload: jest.fn(), prefetch: jest.fn() })).toThrow('#root');
  });
});
