import { act, render, screen } from '@testing-library/react';
import type { RemotesConfig } from '../remotes/remotesConfig';
import { OverrideNotice } from './OverrideNotice';

const COOKIE = 'other=1; nativegtm_override_notice=jobs@http://localhost:3103';
/** remotes.json as the server answered it to this browser. */
const remotes = (jobs: string) => () =>
  Promise.resolve<RemotesConfig>({ entries: { jobs }, integrity: {}, devServers: {}, problems: [] });
const overriding = remotes('http://localhost:3103/mf-manifest.json');

describe('OverrideNotice', () => {
  it('names the remote and the dev server it comes from, says where it renders, and links to the end', async () => {
    render(<OverrideNotice cookies={COOKIE} remotesConfig={overriding} />);
    const notice = await screen.findByRole('complementary', { name: 'Override' });
    expect(notice).toHaveTextContent('jobs from http://localhost:3103, rendered in this browser · End');
    expect(screen.getByRole('link', { name: 'End' })).toHaveAttribute('href', '/_override/end');
  });

  it('shows nothing while the site serves the live remote, whatever the cookie says', async () => {
    const live = jest.fn(remotes('http://127.0.0.1:3003/mf-manifest.json'));
    const { container } = render(<OverrideNotice cookies={COOKIE} remotesConfig={live} />);
    // Every promise settled, every state update applied.
    await act(async () => {});
    expect(live).toHaveBeenCalled();
    expect(container).toBeEmptyDOMElement();
  });

  it.each([
    [''],
    ['nativegtm_override_notice='],
    ['nativegtm_override_notice=nobody@http://localhost:3103'],
    ['nativegtm_override_notice=jobs@javascript:alert(1)'],
    ['nativegtm_override_notice=jobs@http://localhost:3103/<script>'],
  ])('shows nothing for %j', async (cookies) => {
    const config = jest.fn(overriding);
    const { container } = render(<OverrideNotice cookies={cookies} remotesConfig={config} />);
    // Every promise settled, every state update applied.
    await act(async () => {});
    expect(container).toBeEmptyDOMElement();
    expect(config).not.toHaveBeenCalled();
  });
});
