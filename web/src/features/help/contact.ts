import { CONTACT_EMAIL_MAX, CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX, MESSAGES } from '@moodmap/core';

/** The product's contact address; the form opens the user's mail client, no server call. */
export const CONTACT_ADDRESS = 'contact@moodmap.app';

export type ContactType = 'bug' | 'feedback';

export interface ContactForm {
  type: ContactType;
  email: string;
  subject: string;
  message: string;
}

export const CONTACT_LIMITS = { email: CONTACT_EMAIL_MAX, subject: CONTACT_SUBJECT_MAX, message: CONTACT_MESSAGE_MAX };

/** E-mail and message are required; lengths are capped by the inputs. */
export function contactError(form: ContactForm): string | null {
  if (!form.email.trim() || !form.message.trim()) return MESSAGES.contact_fields_required;
  return null;
}

export function contactMailto(form: ContactForm): string {
  const label = form.type === 'bug' ? 'Bug' : 'Avis';
  const subject = `[MoodMap - ${label}] ${form.subject.trim() || (form.type === 'bug' ? MESSAGES.contact_type_bug : MESSAGES.contact_type_feedback)}`;
  const body = `${form.message.trim()}\n\n---\n${MESSAGES.contact_type_label} : ${label}\n${MESSAGES.contact_email_label} : ${form.email.trim()}`;
  return `mailto:${CONTACT_ADDRESS}?subject=${encodeURIComponent(subject.slice(0, 200))}&body=${encodeURIComponent(body)}`;
}
