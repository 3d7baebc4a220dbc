/** What a marker looks like: a post (author photo in a mood ring), a 100 m cluster, a zoomed-out aggregate. */
import { MAP, MOOD_INFO, t } from '@moodmap/core';
import { AuthorPhoto } from '../../posts/AuthorPhoto.tsx';
import type { PostDto } from '../../posts/post-types.ts';

export const POST_MARKER_SIZE = 46;

/** Single marker (spec §2): the photo ringed in the mood colour, a pulse ring for pulse posts, the mood emoji as a badge. */
export function PostMarkerView({ post, selected }: { post: PostDto; selected: boolean }) {
  const mood = MOOD_INFO[post.category];
  const inner = POST_MARKER_SIZE - 8;
  return (
    <span
      className="mm-marker-in relative block transition-transform duration-150 hover:scale-110"
      style={{ width: POST_MARKER_SIZE, height: POST_MARKER_SIZE, transform: selected ? 'scale(1.12)' : undefined }}
    >
      {post.hasPulseEffect ? (
        <>
          <span className="mm-pulse-ring" style={{ backgroundColor: `${mood.color}99` }} aria-hidden="true" />
          <span className="mm-pulse-ring mm-delay" style={{ backgroundColor: `${mood.color}66` }} aria-hidden="true" />
        </>
      ) : null}
      <span
        className="absolute inset-0 flex items-center justify-center rounded-full bg-white shadow-lg shadow-ink-900/30 dark:bg-ink-900"
        style={{
          boxShadow: `0 0 0 3px ${mood.color}, 0 4px 14px -2px rgb(20 27 43 / 0.45)${post.hasPulseEffect ? `, 0 0 18px 4px ${mood.color}` : ''}`,
        }}
      >
        <span className="block overflow-hidden rounded-full" style={{ width: inner, height: inner }}>
          <AuthorPhoto post={post} size={inner} />
        </span>
      </span>
      <span
        className="emoji absolute -right-1 -bottom-1 flex size-5 items-center justify-center rounded-full text-[11px] shadow ring-2 ring-white dark:ring-ink-900"
        style={{ backgroundColor: mood.color }}
        aria-hidden="true"
      >
        {mood.emoji}
      </span>
    </span>
  );
}

function clusterSize(count: number): number {
  return Math.round(Math.min(64, 40 + Math.log10(Math.max(1, count)) * 10));
}

/** Compact counts: 999, 1,2k, 15k. */
export function shortCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10_000) return `${(Math.floor(count / 100) / 10).toLocaleString('fr-FR')}k`;
  return `${Math.floor(count / 1000)}k`;
}

/** 100 m cluster (spec §2): #0CC0DF with the count; its popup lists the posts. */
export function ClusterMarkerView({ count, selected }: { count: number; selected: boolean }) {
  const size = clusterSize(count);
  return (
    <span
      className="mm-marker-in relative flex items-center justify-center rounded-full font-extrabold text-white transition-transform duration-150 hover:scale-110"
      style={{
        width: size,
        height: size,
        fontSize: size * 0.36,
        backgroundColor: MAP.clusterColor,
        boxShadow: `0 0 0 3px #fff, 0 0 0 ${selected ? 8 : 6}px ${MAP.clusterColor}55, 0 6px 16px -4px rgb(20 27 43 / 0.5)`,
        transform: selected ? 'scale(1.1)' : undefined,
      }}
      title={t('cluster_count', { count })}
    >
      {count}
    </span>
  );
}

/** Zoomed-out aggregate of nearby posts and clusters: the cluster colour, a halo, the count; a click zooms in. */
export function AggregateMarkerView({ count }: { count: number }) {
  const size = clusterSize(count) + 6;
  return (
    <span className="mm-marker-in relative flex items-center justify-center transition-transform duration-150 hover:scale-110" style={{ width: size + 14, height: size + 14 }}>
      <span className="absolute inset-0 rounded-full" style={{ backgroundColor: `${MAP.clusterColor}38` }} aria-hidden="true" />
      <span
        className="relative flex items-center justify-center rounded-full font-extrabold text-white"
        style={{
          width: size,
          height: size,
          fontSize: size * 0.34,
          backgroundColor: MAP.clusterColor,
          boxShadow: '0 0 0 2.5px #fff, 0 6px 16px -4px rgb(20 27 43 / 0.5)',
        }}
      >
        {shortCount(count)}
      </span>
    </span>
  );
}
