/** Stops what a page started (its polling). */
export type Dispose = () => void;

/**
 * Runs `refresh` every `intervalMs`, never two at once, until the returned function is called.
 * A failed refresh is reported by `refresh` itself; polling goes on.
 */
export function poll(intervalMs: number, refresh: () => Promise<void>): Dispose {
  let stopped = false;
  let timer: number | undefined;
  const next = () => {
    timer = window.setTimeout(() => {
      void refresh().finally(() => {
        if (!stopped) next();
      });
    }, intervalMs);
  };
  next();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
