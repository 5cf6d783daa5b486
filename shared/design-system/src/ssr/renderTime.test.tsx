/** @jest-environment node */
import { renderToString } from 'react-dom/server';
import { RenderTimeContext, useCurrentYear } from './renderTime';

function Year() {
  return <>{useCurrentYear(() => new Date())}</>;
}

describe('useCurrentYear while rendering HTML to hydrate', () => {
  afterEach(() => jest.restoreAllMocks());

  it("gives the render's year in UTC, whatever the local time zone (the build and the visitor may be far apart)", () => {
    // Noon on New Year's Eve in UTC; in a zone ahead of UTC (here: the local year faked) it is already next year.
    const renderedAt = Date.UTC(2026, 11, 31, 12);
    jest.spyOn(Date.prototype, 'getFullYear').mockReturnValue(2027);
    const html = renderToString(
      <RenderTimeContext.Provider value={renderedAt}>
        <Year />
      </RenderTimeContext.Provider>,
    );
    expect(html).toBe('2026');
  });
});
