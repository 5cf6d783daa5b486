import { Section, StepList } from '@nativegtm/design-system';
import { steps } from '../content';

export function HowItWorksSection() {
  return (
    <Section
      tone="muted"
      eyebrow="How it works"
      title="Three steps to your next role"
      lead="No cover letters, no twelve first-round calls. One conversation speaks for you."
    >
      <StepList steps={steps} />
    </Section>
  );
}
