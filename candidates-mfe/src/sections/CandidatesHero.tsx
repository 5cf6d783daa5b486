import { ButtonLink, Hero, paths } from '@nativegtm/design-system';
import { InterviewPreview } from './InterviewPreview';

export function CandidatesHero() {
  return (
    <Hero
      eyebrow="AI won't take your job. Someone using AI will."
      title="Land high-paying AI-native GTM jobs"
      lead="Take one 15-minute AI voice interview, upload your resume and get introduced to companies hiring AI-native sales, marketing and product talent."
      bullets={[
        'One interview, introductions to many companies',
        'Your functional skills and AI proficiency, assessed fairly',
        'Access to confidential roles that are not public yet',
      ]}
      actions={
        <ButtonLink to={paths.comingSoon} size="lg">
          Apply Now
        </ButtonLink>
      }
      aside={<InterviewPreview />}
    />
  );
}
