/**
 * The offer to be notified: made after the user's first sent message, never on
 * load, and never again once answered on this device ('Plus tard' is remembered). Not made when
 * the browser cannot, when its notifications are blocked, or when this device already receives them.
 */
import { create } from 'zustand';
import { offerAnswered, pushPermission, thisDeviceId } from './browser-push.ts';

interface OfferState {
  visible: boolean;
  /** Called after a message was sent. */
  afterSend(): void;
  hide(): void;
}

export const usePushOffer = create<OfferState>()((set) => ({
  visible: false,
  afterSend() {
    if (offerAnswered() || thisDeviceId() !== null) return;
    const permission = pushPermission();
    if (permission === 'unsupported' || permission === 'denied') return;
    set({ visible: true });
  },
  hide: () => set({ visible: false }),
}));
