/**
 * The map's popups, one chunk: a post's (PostPopup) and a 100 m group's list (ClusterList). They
 * show after a tap, so they are not on the map's first load: warm-up.ts fetches them
 * once the markers are drawn, and a tap before that fetches them then.
 */
export { ClusterList } from './ClusterList.tsx';
export { PostPopup } from './PostPopup.tsx';
