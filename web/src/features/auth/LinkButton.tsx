import type { ReactNode } from 'react';

/** A text button for switching between the auth modal's modes. */
export function LinkButton({
  children,
  onClick,
  testId,
}: {
  children: ReactNode;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      className="rounded-md font-semibold text-brand-600 underline-offset-4 hover:underline dark:text-brand-300"
    >
      {children}
    </button>
  );
}
