/** How long a reader runs before it lets other work (a request the same process serves) have a turn. */
const TURN_MS = 50;

/**
 * For long synchronous work done in steps (inflating a bomb to its cap takes seconds): `pause()` after a
 * step yields to the event loop once TURN_MS have passed since the last turn, and returns at once otherwise.
 */
export function turns(): { pause: () => Promise<void> | undefined } {
  let last = Date.now();
  return {
    pause() {
      if (Date.now() - last <= TURN_MS) return undefined;
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          last = Date.now();
          resolve();
        }, 0),
      );
    },
  };
}
