/** Bench clients' WebSockets. */
import WebSocket from 'ws';

/** Closes each socket, and terminates one that has not closed within 3 s. */
export function closeAll(sockets: WebSocket[]): Promise<void> {
  return Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          socket.on('error', () => {});
          const timer = setTimeout(() => {
            socket.terminate();
            resolve();
          }, 3000);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close();
        }),
    ),
  ).then(() => {});
}
