import { NavigationType } from 'react-router-dom';
import { createBrowserHistory, createMemoryHistory, type HistoryUpdate } from './history';

describe('the browser history the shell navigates with', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));

  it('gives the first entry a key of its own, keeping what a reload left in history.state', () => {
    window.history.replaceState({ usr: { from: 'before' }, key: 'kept' }, '', '/employers');
    expect(createBrowserHistory().location).toMatchObject({ pathname: '/employers', key: 'kept' });
    window.history.replaceState(null, '', '/employers?x=1#top');
    const fresh = createBrowserHistory().location;
    expect(fresh).toMatchObject({ pathname: '/employers', search: '?x=1', hash: '#top', state: null });
    expect(fresh.key).toMatch(/^[a-z0-9]+$/);
    expect(fresh.key).not.toBe('default');
  });

  it('pushes and replaces entries, telling its listeners with a new key each time', () => {
    const history = createBrowserHistory();
    const updates: HistoryUpdate[] = [];
    history.listen((update) => updates.push(update));
    history.push('/featured-jobs?type=Remote', { from: 'test' }, { preventScrollReset: true });
    history.replace({ pathname: '/coming-soon', hash: '#signup' });

    expect(window.location.pathname + window.location.hash).toBe('/coming-soon#signup');
    expect(updates.map((u) => [u.action, u.location.pathname, u.location.search, u.preventScrollReset])).toEqual([
      [NavigationType.Push, '/featured-jobs', '?type=Remote', true],
      [NavigationType.Replace, '/coming-soon', '', false],
    ]);
    expect(updates[0]!.location.state).toEqual({ from: 'test' });
    expect(updates[0]!.location.key).not.toBe(updates[1]!.location.key);
    expect(history.location).toBe(updates[1]!.location);
  });

  it('reports Back (popstate) with the entry it returns to', async () => {
    const history = createBrowserHistory();
    history.push('/employers');
    const employers = history.location;
    history.push('/coming-soon');
    const updates: HistoryUpdate[] = [];
    history.listen((update) => updates.push(update));

    const popped = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    window.history.back();
    await popped;
    expect(updates).toEqual([{ action: NavigationType.Pop, location: employers, preventScrollReset: false }]);
  });

  it('keys an entry it did not make (a #hash typed in the address bar), keeping what another script stored', async () => {
    const history = createBrowserHistory();
    const updates: HistoryUpdate[] = [];
    history.listen((update) => updates.push(update));
    window.history.pushState({ theirs: 1 }, '', '/#apply');
    window.history.pushState(null, '', '/#faq');
    const popped = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    window.history.back();
    await popped;
    expect(window.history.state).toMatchObject({ theirs: 1, usr: null, key: expect.stringMatching(/^[a-z0-9]+$/) });
    expect(updates[0]!.location).toMatchObject({ hash: '#apply', key: window.history.state.key });
  });

  function refusingWindow(reason = 'SecurityError') {
    const location = { pathname: '/', search: '', hash: '', assign: jest.fn(), replace: jest.fn() };
    const refuse = () => {
      throw new DOMException('Refused', reason);
    };
    const win = {
      location,
      history: { state: { usr: null, key: 'first' }, pushState: refuse, replaceState: refuse },
      addEventListener: () => undefined,
    } as unknown as Window;
    return { win, location };
  }

  it('loads the page in full when the browser refuses another history entry: a new entry, or in place', () => {
    const { win, location } = refusingWindow();
    const history = createBrowserHistory(win);
    const listener = jest.fn();
    history.listen(listener);
    history.push('/employers');
    expect(location.assign).toHaveBeenCalledWith('/employers');
    history.replace('/coming-soon');
    expect(location.replace).toHaveBeenCalledWith('/coming-soon');
    expect(listener).not.toHaveBeenCalled();
  });

  it('throws state the History API cannot store rather than reloading the page', () => {
    const { win, location } = refusingWindow('DataCloneError');
    const history = createBrowserHistory(win);
    expect(() => history.push('/employers', { run: () => undefined })).toThrow('Refused');
    expect(location.assign).not.toHaveBeenCalled();
  });
});

describe('the memory history tests navigate with', () => {
  it('goes back and forward within its entries and no further', () => {
    const history = createMemoryHistory(['/']);
    history.push('/employers');
    history.push('/coming-soon');
    history.go(-1);
    expect([history.action, history.location.pathname]).toEqual([NavigationType.Pop, '/employers']);
    history.go(-5);
    expect(history.location.pathname).toBe('/');
    history.push('/featured-jobs');
    history.go(1);
    expect(history.location.pathname).toBe('/featured-jobs');
  });
});
