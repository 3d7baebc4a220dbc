import type { InputHTMLAttributes } from 'react';
import { MESSAGES } from '@moodmap/core';
import { TextField } from '../../ui/Field.tsx';

/** The e-mail input of the login, forgotten-password and sign-up forms. */
export function EmailField(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name'>) {
  return (
    <TextField
      label={MESSAGES.auth_email_label}
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      placeholder={MESSAGES.auth_email_placeholder}
      {...props}
    />
  );
}
