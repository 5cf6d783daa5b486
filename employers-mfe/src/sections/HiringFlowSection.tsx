import { Section, StepList } from '@nativegtm/design-system';
import { hiringSteps } from '../content';

export function HiringFlowSection() {
  return (
    <Section
      tone="muted"
      eyebrow="How hiring works"
      title="From job post to introduction in five steps"
      lead="Candidates are rated Elite, Pro, Moderate or Basic, so you know what you get before the first call."
    >
      <StepList steps={hiringSteps} />
    </Section>
  );
}
