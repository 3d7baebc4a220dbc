import { useId } from 'react';

/** The MoodMap pin with a smile (same drawing as /logo.svg). */
export function LogoMark({ size = 32, className }: { size?: number; className?: string }) {
  const gradient = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="12" y1="4" x2="52" y2="60" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#0CC0DF" />
          <stop offset="1" stopColor="#7C5CFF" />
        </linearGradient>
      </defs>
      <path
        d="M32 3C19.85 3 10 12.6 10 24.5 10 40.2 32 61 32 61s22-20.8 22-36.5C54 12.6 44.15 3 32 3z"
        fill={`url(#${gradient})`}
      />
      <circle cx="32" cy="25" r="14" fill="#fff" />
      <circle cx="27" cy="22" r="2.2" fill="#1b2436" />
      <circle cx="37" cy="22" r="2.2" fill="#1b2436" />
      <path
        d="M25.5 28.2c1.6 2.7 3.8 4 6.5 4s4.9-1.3 6.5-4"
        fill="none"
        stroke="#1b2436"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Wordmark({ className = '' }: { className?: string }) {
  return (
    <span className={`font-extrabold tracking-tight ${className}`}>
      <span className="text-ink-900 dark:text-white">Mood</span>
      <span className="bg-gradient-to-r from-brand-500 to-violet-brand bg-clip-text text-transparent">Map</span>
    </span>
  );
}
