import { ReasonList, Section } from '@nativegtm/design-system';
import { freeOffer } from '../content';

export function FreeOfferSection() {
  return (
    <Section
      eyebrow="Pay only when you hire"
      title="Everything you need to hire, FREE"
      lead="No subscription, no credit card, no fee per search. The tools are yours from day one."
    >
      <ReasonList reasons={freeOffer} tag="FREE" />
    </Section>
  );
}
