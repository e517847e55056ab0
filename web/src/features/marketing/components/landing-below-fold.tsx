import { ClosingCta, Faq, Features, HowItWorks, Pricing, Testimonials } from './landing-sections.tsx';

/** The landing page's sections after the hero, in the order of SPEC section 1. */
export default function LandingBelowFold() {
  return (
    <>
      <Features />
      <HowItWorks />
      <Testimonials />
      <Pricing />
      <Faq />
      <ClosingCta />
    </>
  );
}
