/**
 * The unread rule, for the conversation list's dot and the messages badge: a conversation I
 * accepted whose last message is the other person's and not read yet. The server's badge query
 * says the same in SQL (modules/messages/service.ts).
 */
export function isUnreadFor(
  me: string | null | undefined,
  accepted: boolean,
  last: { senderId: string | null; read: boolean } | null,
): boolean {
  return accepted && last !== null && last.senderId !== me && !last.read;
}
