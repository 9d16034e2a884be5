/** Resolves on a later task of the event loop: timers, I/O and other requests get their turn before it. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
