import { ReasonList, Section } from '@nativegtm/design-system';
import { reasons } from '../content';

export function ReasonsSection() {
  return (
    <Section eyebrow="Why NativeGTM" title="Five reasons to hire with us">
      <ReasonList reasons={reasons} />
    </Section>
  );
}
