import { useRef } from 'react';
import { createPortal } from 'react-dom';
import { MESSAGES } from '@moodmap/core';
import { useDialogBehaviour } from './dialog-behaviour.ts';
import { CloseIcon } from './icons.tsx';

/** The image preview modal: the enlarged image, closed by a backdrop click, Escape or ✕. */
export function ImagePreview({ src, alt = '', onClose }: { src: string; alt?: string; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogBehaviour(ref, onClose);
  return createPortal(
    <div
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-label={MESSAGES.image_preview_title}
      tabIndex={-1}
      data-testid="image-preview"
      className="fixed inset-0 z-[70] flex animate-fade-in items-center justify-center bg-ink-900/85 p-4 outline-none backdrop-blur-sm md:p-10"
    >
      {/* The backdrop, under the image: a pointer shortcut only, Escape and ✕ close it for everyone else. */}
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        onClick={onClose}
        className="absolute inset-0 cursor-default"
        data-testid="image-preview-backdrop"
      />
      <img
        src={src}
        alt={alt}
        className="relative max-h-full max-w-full animate-pop-in rounded-2xl object-contain shadow-2xl"
        data-testid="image-preview-img"
      />
      <button
        type="button"
        onClick={onClose}
        aria-label={MESSAGES.close}
        className="absolute top-[max(env(safe-area-inset-top),1rem)] right-4 flex size-11 items-center justify-center rounded-full bg-white/15 text-white backdrop-blur transition hover:bg-white/25"
      >
        <CloseIcon size={22} />
      </button>
    </div>,
    document.body,
  );
}
