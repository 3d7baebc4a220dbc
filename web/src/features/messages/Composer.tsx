import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CHAT_IMAGE_MAX_BYTES, MESSAGE_TEXT_MAX, MESSAGES } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { errorText } from '../../lib/api.ts';
import { useObjectUrl } from '../../lib/object-url.ts';
import { IconButton, Spinner } from '../../ui/Button.tsx';
import { CloseIcon, ImageIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { sendMessage } from './conversations-api.ts';
import { applyMessage } from './messages-query.ts';
import { useMessagesSelection } from './messages-store.ts';

/** The textarea grows with its text up to this height, then scrolls. */
const MAX_INPUT_PX = 144;

/** Chat images: images only, at most 5 MB. Null when the file may be sent. */
export function chatImageProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return MESSAGES.messages_only_images;
  if (file.size > CHAT_IMAGE_MAX_BYTES) return MESSAGES.image_too_large_5mb;
  return null;
}

function SendIcon({ size = 20 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M21 3 10.5 13.5" />
      <path d="M21 3 14.5 21l-4-7.5L3 9.5 21 3Z" />
    </svg>
  );
}

const wideScreen = () =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(min-width: 769px)').matches;

/**
 * The text field's ref: it grows with `draft` up to its cap, then scrolls; on a wide screen it
 * is ready to type in when a conversation opens (a prefilled draft with the caret at its end).
 */
function useComposerInput(draft: string, conversationId: string) {
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    if (el.scrollHeight > 0) el.style.height = `${Math.min(el.scrollHeight, MAX_INPUT_PX)}px`;
  }, [draft]);

  useEffect(() => {
    const el = inputRef.current;
    if (!el || !wideScreen()) return;
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
  }, [conversationId]);

  return inputRef;
}

/** The picked image before it is sent: its preview (a placeholder until read), and a remove button. */
function PickedImage({
  preview,
  disabled,
  onRemove,
}: {
  preview: string | null;
  disabled: boolean;
  onRemove: () => void;
}) {
  return (
    <div className="relative mb-2.5 ml-12 inline-block" data-testid="message-image-preview">
      {preview ? (
        <img
          src={preview}
          alt=""
          className="size-20 rounded-xl object-cover ring-1 ring-slate-200 dark:ring-white/10"
        />
      ) : (
        <span className="flex size-20 items-center justify-center rounded-xl bg-slate-100 text-slate-400 ring-1 ring-slate-200 dark:bg-ink-800 dark:ring-white/10">
          <ImageIcon size={24} />
        </span>
      )}
      <button
        type="button"
        onClick={onRemove}
        disabled={disabled}
        aria-label={MESSAGES.messages_remove_image}
        data-testid="message-image-remove"
        className="absolute -top-2 -right-2 flex size-7 items-center justify-center rounded-full bg-ink-900 text-white shadow-md ring-2 ring-white transition hover:bg-ink-700 dark:bg-slate-200 dark:text-ink-900 dark:ring-ink-900 dark:hover:bg-white"
      >
        <CloseIcon size={14} strokeWidth={2.6} />
      </button>
    </div>
  );
}

function SendButton({ sending, canSend }: { sending: boolean; canSend: boolean }) {
  return (
    <button
      type="submit"
      disabled={!canSend}
      aria-label={sending ? MESSAGES.auth_sending : MESSAGES.contact_submit}
      title={MESSAGES.contact_submit}
      aria-busy={sending || undefined}
      data-testid="message-send"
      className={`flex size-11 shrink-0 items-center justify-center rounded-full transition ${
        sending || canSend
          ? 'bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30 enabled:hover:brightness-105 enabled:active:scale-95'
          : 'bg-slate-200 text-slate-400 dark:bg-ink-700 dark:text-slate-500'
      }`}
    >
      {sending ? <Spinner className="size-5" /> : <SendIcon />}
    </button>
  );
}

/**
 * The composer: text (Enter sends, Shift+Enter a new line),
 * one image with a preview and a remove button, a send button with a spinner. Sending clears
 * both on success; on failure they stay, and the server's reason is shown. `closedReason`: the
 * conversation cannot be answered; it is said where the text would go, and nothing can be sent.
 */
export function Composer({
  conversationId,
  placeholder,
  onSent,
  closedReason,
}: {
  conversationId: string;
  placeholder: string;
  onSent: () => void;
  closedReason?: string;
}) {
  const client = useQueryClient();
  const me = useSessionStore((s) => s.user?.id);
  const draft = useMessagesSelection((s) => (s.conversationId === conversationId ? s.draft : ''));
  const setDraft = useMessagesSelection((s) => s.setDraft);
  const [file, setFile] = useState<File | null>(null);
  const send = useMutation({
    mutationFn: (body: { content: string; file: File | null }) => sendMessage(conversationId, body),
    onSuccess: (message) => {
      applyMessage(client, message, me);
      if (useMessagesSelection.getState().conversationId === conversationId) setDraft('');
      setFile(null);
      onSent();
    },
    // The inputs stay for another try; the reason (limit reached, too long…) is said.
    onError: (error) => toast.error(errorText(error)),
  });
  const sending = send.isPending;
  const preview = useObjectUrl(file);
  const inputRef = useComposerInput(draft, conversationId);
  const fileRef = useRef<HTMLInputElement>(null);
  const closed = closedReason !== undefined;
  const canSend = !closed && !sending && (draft.trim() !== '' || file !== null);

  const pick = (picked: File | null | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
    if (!picked) return;
    const problem = chatImageProblem(picked);
    if (problem) {
      toast.error(problem);
      return;
    }
    setFile(picked);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    send.mutate({ content: draft.trim(), file });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const image = Array.from(event.clipboardData?.files ?? []).find((f) => f.type.startsWith('image/'));
    if (!image) return;
    event.preventDefault();
    pick(image);
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      data-testid="message-composer"
      aria-disabled={closed || undefined}
      className="shrink-0 border-t border-slate-100 bg-white px-3 pt-2.5 pb-3 md:px-4 dark:border-white/5 dark:bg-ink-900"
    >
      {file ? <PickedImage preview={preview} disabled={sending} onRemove={() => setFile(null)} /> : null}
      <div className="flex items-end gap-2">
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="message-image-input"
          onChange={(e) => pick(e.target.files?.[0])}
        />
        <IconButton
          onClick={() => fileRef.current?.click()}
          disabled={sending || closed}
          label={MESSAGES.messages_attach_image}
          testId="message-attach"
          className="size-11 text-slate-500 hover:bg-brand-500/10 hover:text-brand-600 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-brand-400/10 dark:hover:text-brand-300"
        >
          <ImageIcon size={22} />
        </IconButton>
        <div className="min-w-0 flex-1 rounded-[1.375rem] bg-slate-100 px-4 py-2.5 ring-brand-500/40 transition focus-within:bg-white focus-within:ring-2 dark:bg-ink-800 dark:focus-within:bg-ink-800">
          {closed ? (
            <p className="text-[15px] leading-6 text-slate-600 dark:text-slate-300" data-testid="composer-closed">
              {closedReason}
            </p>
          ) : (
            <textarea
              ref={inputRef}
              rows={1}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              readOnly={sending}
              maxLength={MESSAGE_TEXT_MAX}
              placeholder={placeholder}
              aria-label={placeholder}
              data-testid="message-input"
              className="block max-h-36 w-full resize-none bg-transparent text-[15px] leading-6 text-ink-900 outline-none placeholder:text-slate-400 dark:text-white dark:placeholder:text-slate-500"
            />
          )}
        </div>
        <SendButton sending={sending} canSend={canSend} />
      </div>
    </form>
  );
}
