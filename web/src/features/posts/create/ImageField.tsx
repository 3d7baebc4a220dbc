import { useId, useRef, useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { useObjectUrl } from '../../../lib/object-url.ts';
import { ImagePreview } from '../../../ui/ImagePreview.tsx';
import { CloseIcon, ImageIcon } from '../../../ui/icons.tsx';
import { IMAGE_TYPES, imageFileError } from './validation.ts';

/** One image (JPEG, PNG, GIF, WebP, 10 MB): a preview that enlarges on click, and a remove button. */
export function ImageField({ file, onChange }: { file: File | null; onChange: (file: File | null) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const preview = useObjectUrl(file);
  const [enlarged, setEnlarged] = useState(false);

  const pick = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const problem = imageFileError(files);
    setError(problem);
    if (!problem) onChange(files[0]!);
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <div className="space-y-1.5">
      <span className="block text-sm font-semibold text-slate-700 dark:text-slate-300" id={`${id}-label`}>
        {MESSAGES.create_image_label}
      </span>
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        className="sr-only"
        data-testid="create-image-input"
        aria-labelledby={`${id}-label`}
        onChange={(e) => pick(e.target.files)}
      />
      {file && preview ? (
        <div
          className="relative h-36 overflow-hidden rounded-2xl bg-slate-100 ring-1 ring-slate-200 dark:bg-ink-800 dark:ring-white/10"
          data-testid="create-image-preview"
        >
          <button
            type="button"
            onClick={() => setEnlarged(true)}
            aria-label={MESSAGES.image_enlarge}
            className="block size-full"
          >
            <img src={preview} alt="" className="size-full object-cover" />
          </button>
          <button
            type="button"
            onClick={() => {
              onChange(null);
              setError(null);
            }}
            aria-label={MESSAGES.create_image_remove}
            data-testid="create-image-remove"
            className="absolute top-2 right-2 flex size-9 items-center justify-center rounded-full bg-ink-900/70 text-white backdrop-blur transition hover:bg-ink-900/90"
          >
            <CloseIcon size={18} />
          </button>
          <span className="absolute bottom-2 left-2 max-w-[calc(100%-1rem)] truncate rounded-full bg-ink-900/65 px-2.5 py-1 text-[11px] font-medium text-white backdrop-blur">
            {file.name}
          </span>
        </div>
      ) : (
        <label
          htmlFor={id}
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            e.preventDefault();
            pick(e.dataTransfer.files);
          }}
          className="flex h-36 cursor-pointer flex-col items-center justify-center gap-1.5 rounded-2xl border-2 border-dashed border-slate-200 bg-slate-50/60 px-3 text-center text-slate-500 transition hover:border-brand-500/60 hover:bg-brand-50/50 hover:text-brand-700 dark:border-white/10 dark:bg-white/[0.02] dark:text-slate-400 dark:hover:border-brand-400/50 dark:hover:bg-brand-500/5 dark:hover:text-brand-300"
        >
          <ImageIcon size={26} />
          <span className="text-sm font-semibold">{MESSAGES.create_image_add}</span>
          <span className="text-[11px]">{MESSAGES.create_image_hint}</span>
        </label>
      )}
      {error ? (
        <p
          role="alert"
          data-testid="create-image-error"
          className="text-xs font-medium text-rose-600 dark:text-rose-300"
        >
          {error}
        </p>
      ) : null}
      {enlarged && preview ? <ImagePreview src={preview} onClose={() => setEnlarged(false)} /> : null}
    </div>
  );
}
