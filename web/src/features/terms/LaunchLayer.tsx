/** The app-wide launch UI: the terms notices and modal, and the emergency banner; a lazy chunk of its own. */
import { EmergencyBanner } from '../emergency/EmergencyBanner.tsx';
import { TermsLayer } from './TermsLayer.tsx';

export function LaunchLayer() {
  return (
    <>
      <TermsLayer />
      <EmergencyBanner />
    </>
  );
}
