import { ClosingCta, Faq, Features, HowItWorks, Pricing, Testimonials } from './landing-sections.tsx';

/** The landing page's sections after the hero, in the order of docs/product.md#screens. */
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
