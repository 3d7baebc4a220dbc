/**
 * "Contacter" on a post (docs/product.md, Messages): a visitor is asked to
 * sign in; a member opens (or creates) the conversation with the author and lands on
 * /messages?conversation={id} with a draft quoting the first 50 characters of the post.
 */
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { CONTACT_QUOTE_CHARS, MESSAGES, t, truncate } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import type { PostDto } from '../posts/post-types.ts';
import { openConversation } from './conversations-api.ts';
import { ApiError } from '../../lib/http.ts';

/** Navigation state /messages reads with `?conversation=`. */
export interface MessagesNavigationState {
  prefill?: string;
  nickname?: string;
}

/** The first message offered when contacting a poster. */
export function contactPrefill(post: Pick<PostDto, 'content' | 'isVoiceOnly'>): string {
  const text = post.isVoiceOnly ? '' : post.content.replace(/\s+/g, ' ').trim();
  return text ? t('contact_prefill', { quote: truncate(text, CONTACT_QUOTE_CHARS) }) : MESSAGES.contact_prefill_no_text;
}

/** The toast of a failed contact from the map: the product's French text for its cause. */
export function contactErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status > 0 && error.code !== 'internal_error' && error.message)
    return t('contact_error', { message: error.message });
  return MESSAGES.conversation_impossible;
}

type ContactedPost = Pick<PostDto, 'userId' | 'nickname' | 'content' | 'isVoiceOnly'>;

export function useContactAuthor() {
  const navigate = useNavigate();
  const signedIn = useSessionStore((s) => s.user !== null);
  const openAuth = useUiStore((s) => s.openAuth);
  const open = useMutation({
    mutationFn: (post: ContactedPost) => openConversation(post.userId),
    onSuccess: (conversation, post) => {
      const state: MessagesNavigationState = { prefill: contactPrefill(post), nickname: post.nickname };
      void navigate(`/messages?conversation=${encodeURIComponent(conversation.id)}`, { state });
    },
    // From the map: the server's reason as 'Erreur: {message}', else 'Impossible de créer la conversation'.
    onError: (error) => toast.error(contactErrorText(error)),
  });
  const opening = open.isPending;

  const contact = (post: ContactedPost) => {
    if (!signedIn) {
      toast.info(MESSAGES.contact_signed_out);
      openAuth('login');
      return;
    }
    if (opening) return;
    open.mutate(post);
  };

  return { contact, opening };
}
