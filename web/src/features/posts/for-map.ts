/**
 * What the map takes from the posts feature, in one place: the markers' data and its live
 * changes, the viewport feed, the post cards a tap opens, and the small pieces of a card the
 * popups reuse. The map imports nothing else from posts.
 */
export { AuthorPhoto, initialsOf } from './AuthorPhoto.tsx';
export { MoodBadge } from './MoodBadge.tsx';
export { PopupFrame } from './PopupFrame.tsx';
export { PostByline } from './PostByline.tsx';
export { useInteractionsRealtime } from './interactions-realtime.ts';
export { loadPostCard } from './post-card-chunk.ts';
export { prefetchPostCard, useGroupCards, usePostCard } from './post-card-query.ts';
export { firstImage, type MarkerDto } from './post-types.ts';
export { fetchPost } from './posts-api.ts';
export {
  cardKey,
  derivedFrom,
  type MarkerChange,
  onMarkerChange,
  pinPostInCache,
  REFRESH_POSTS_EVENT,
  removePostFromCache,
} from './posts-query.ts';
export { type Bbox, type ServerCluster, type ViewportFeed, useViewportFeed, viewportQuery } from './viewport-query.ts';
