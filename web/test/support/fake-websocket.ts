/** A WebSocket the tests drive by hand: `open()` it, `receive()` server frames, read what it `sent`. */
import { act } from 'react';
import { vi } from 'vitest';

export class FakeWebSocket {
  static readonly OPEN = 1;
  static sockets: FakeWebSocket[] = [];
  readonly OPEN = 1;
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeWebSocket.sockets.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.();
  }
  // Test side:
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(message) }));
  }
  /** A connection the browser refuses before it opens, with an error and no close event (a CSP block). */
  refuse() {
    this.readyState = 3;
    this.onerror?.();
  }
}

/** Replaces the global WebSocket with a fresh FakeWebSocket registry. */
export function installFakeWebSocket(): void {
  FakeWebSocket.sockets = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
}
