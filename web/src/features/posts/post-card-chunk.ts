/**
 * The card's body (likes, comments, report, contact, audio): a chunk of its own, off the map's
 * first load. Fetched once the map is idle with its markers (map/markers/warm-up.ts),
 * so that the first popup does not wait for it, or by the first popup opened before that.
 */
export const loadPostCard = () => import('./PostCard.tsx');
