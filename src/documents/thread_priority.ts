// The reading threads (document parsing, page images, Tesseract) run below the agents' thread in priority: on
// 2 cores a page being rendered or recognised would otherwise take the agents' share.
import { constants, setPriority } from 'node:os';

/** Lowers the calling thread's priority. On Linux a thread's nice value is its own; elsewhere, or refused, no-op. */
export function lowerThreadPriority(): void {
  try {
    setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {}
}
