import { Fragment } from 'react';

const PICTOGRAPHS = /(\p{Extended_Pictographic}(?:\u200d\p{Extended_Pictographic}|[\u{fe0f}\u{1f3fb}-\u{1f3ff}])*)/u;

/** Text whose emoji use the colour emoji fonts (the `emoji` utility), e.g. '📷 Photo'. */
export function EmojiText({ text }: { text: string }) {
  if (!PICTOGRAPHS.test(text)) return <>{text}</>;
  return (
    <>
      {text.split(PICTOGRAPHS).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} className="emoji">
            {part}
          </span>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
