/** Where the checkout sends the buyer back (server: modules/payments/checkout.ts). Kept apart so the router's first chunk does not load the page. */
export const PULSE_RETURN_PATH = '/pulse/retour';
