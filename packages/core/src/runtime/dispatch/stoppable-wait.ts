/**
 * Waits `ms` milliseconds, or less when `stop` fires first.
 * @returns whether the wait ran its full time (false: stopped).
 * @internal
 */
export function sleepUnlessStopped(ms: number, stop: AbortSignal): Promise<boolean> {
  if (stop.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onStop = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      stop.removeEventListener('abort', onStop);
      resolve(true);
    }, ms);
    stop.addEventListener('abort', onStop, { once: true });
  });
}

/**
 * Races a provider fetch against `stop`. When stop wins, `orphaned` receives the fetch's
 * eventual result so a lock it obtained can be given back.
 * @returns the fetched value, or `undefined` when stopped first.
 * @internal
 */
export async function fetchUnlessStopped<T>(
  fetch: Promise<T>,
  stop: AbortSignal,
  orphaned: (value: T) => Promise<void>,
): Promise<{ readonly value: T } | undefined> {
  let onStop: (() => void) | undefined;
  const stopped = new Promise<undefined>((resolve) => {
    onStop = () => resolve(undefined);
    if (stop.aborted) resolve(undefined);
    else stop.addEventListener('abort', onStop, { once: true });
  });
  try {
    const winner = await Promise.race([fetch.then((value) => ({ value })), stopped]);
    if (!winner) void fetch.then(orphaned, () => undefined);
    return winner;
  } finally {
    if (onStop) stop.removeEventListener('abort', onStop);
  }
}

/**
 * Runs `renew` every `intervalMs` until the returned stop function is called or `renew` fails,
 * which calls `onLost`.
 * @internal
 */
export function startRenewal(
  intervalMs: number,
  renew: () => Promise<void>,
  onLost: (error: unknown) => void,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    timer = setTimeout(() => {
      renew().then(
        () => {
          if (!stopped) schedule();
        },
        (error: unknown) => {
          if (!stopped) onLost(error);
        },
      );
    }, intervalMs);
  };
  schedule();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
