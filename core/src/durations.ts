/** Durations in milliseconds, the unit of Date, timers and the limits: written `7 * DAY`, `15 * MINUTE`. */
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
