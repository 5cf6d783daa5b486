import { render, screen } from '@testing-library/react';
import { OverrideNotice } from './OverrideNotice';

describe('OverrideNotice', () => {
  it('names the remote and the dev server it comes from, says where it renders, and links to the end', () => {
    render(<OverrideNotice cookies="other=1; nativegtm_override_notice=jobs@http://localhost:3103" />);
    const notice = screen.getByRole('complementary', { name: 'Override' });
    expect(notice).toHaveTextContent('jobs from http://localhost:3103, rendered in this browser · End');
    expect(screen.getByRole('link', { name: 'End' })).toHaveAttribute('href', '/_override/end');
  });

  it.each([
    [''],
    ['nativegtm_override_notice='],
    ['nativegtm_override_notice=nobody@http://localhost:3103'],
    ['nativegtm_override_notice=jobs@javascript:alert(1)'],
    ['nativegtm_override_notice=jobs@http://localhost:3103/<script>'],
  ])('shows nothing for %j', (cookies) => {
    const { container } = render(<OverrideNotice cookies={cookies} />);
    expect(container).toBeEmptyDOMElement();
  });
});
