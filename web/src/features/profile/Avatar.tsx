import { useState } from 'react';

/** Round profile photo, or the name's initial on a gradient when there is none (or it fails). */
export function Avatar({
  url,
  name,
  size = 48,
  ring,
}: {
  url?: string | null;
  name: string;
  size?: number;
  ring?: string;
}) {
  const [broken, setBroken] = useState(false);
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  const style = { width: size, height: size, boxShadow: ring ? `0 0 0 3px ${ring}` : undefined };
  if (url && !broken) {
    return (
      <img
        src={url}
        alt=""
        onError={() => setBroken(true)}
        style={style}
        className="shrink-0 rounded-full object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ ...style, fontSize: size * 0.42 }}
      className="flex shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-brand font-bold text-white"
    >
      {initial}
    </span>
  );
}
