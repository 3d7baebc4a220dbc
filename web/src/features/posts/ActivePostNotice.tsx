import { useNavigate } from 'react-router';
import { MESSAGES, MOOD_INFO, POST_LIFETIME_MS, expiresIn, truncate } from '@moodmap/core';
import { Button } from '../../ui/Button.tsx';
import { ClockIcon, MapIcon } from '../../ui/icons.tsx';
import { DeletePostButton } from './DeletePostButton.tsx';
import { type PostDto, firstImage } from './post-types.ts';

/**
 * The create page's block while the user has a live post (docs/product.md, Posts); deleting it
 * frees the slot.
 */
export function ActivePostNotice({ post }: { post: PostDto }) {
  const navigate = useNavigate();
  const mood = MOOD_INFO[post.category];
  const image = post.thumbnailUrl ?? firstImage(post);
  return (
    <div
      className="flex flex-col items-center px-5 py-8 text-center md:px-7 md:py-10"
      data-testid="create-active-block"
    >
      <div className="mb-4 flex size-16 items-center justify-center rounded-2xl bg-amber-100 text-amber-600 dark:bg-amber-500/15 dark:text-amber-300">
        <ClockIcon size={30} />
      </div>
      <p role="alert" className="max-w-md text-[15px] leading-relaxed font-medium text-ink-900 dark:text-slate-100">
        {MESSAGES.post_active_exists}
      </p>
      <div className="mt-6 flex w-full max-w-md items-center gap-3 rounded-2xl p-3 text-left ring-1 ring-slate-200 dark:ring-white/10">
        {image ? (
          <img src={image} alt="" className="size-14 shrink-0 rounded-xl object-cover" />
        ) : (
          <span
            className="emoji flex size-14 shrink-0 items-center justify-center rounded-xl text-2xl"
            style={{ backgroundColor: `${mood.color}40` }}
          >
            {mood.emoji}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <span
            className="inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-semibold text-ink-900"
            style={{ backgroundColor: mood.color }}
          >
            <span className="emoji">{mood.emoji}</span> {mood.label}
          </span>
          <p className="mt-1 truncate text-sm text-slate-700 dark:text-slate-300">
            {post.isVoiceOnly ? MESSAGES.create_voice_label : truncate(post.content, 80)}
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">{expiresIn(post.createdAt, POST_LIFETIME_MS)}</p>
        </div>
      </div>
      <div className="mt-5 flex flex-wrap items-center justify-center gap-3">
        <Button
          variant="secondary"
          onClick={() => navigate('/', { state: { focusPostId: post.id } })}
          data-testid="active-see-on-map"
        >
          <MapIcon size={18} /> {MESSAGES.see_on_map}
        </Button>
        <DeletePostButton postId={post.id} />
      </div>
    </div>
  );
}
