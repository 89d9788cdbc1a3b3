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
 * Waits for `work`, or less when one of `stops` fires first. The listeners are removed either
 * way: a signal that lives as long as the runtime would otherwise keep one per call.
 * @returns the work's value, or `undefined` when stopped first.
 * @internal
 */
export async function unlessStopped<T extends object>(
  work: Promise<T>,
  stops: readonly AbortSignal[],
): Promise<T | undefined> {
  let onStop: (() => void) | undefined;
  const stopped = new Promise<undefined>((resolve) => {
    onStop = () => resolve(undefined);
    if (stops.some((stop) => stop.aborted)) resolve(undefined);
    else for (const stop of stops) stop.addEventListener('abort', onStop, { once: true });
  });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    for (const stop of stops) if (onStop) stop.removeEventListener('abort', onStop);
  }
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
  const winner = await unlessStopped(
    fetch.then((value) => ({ value })),
    [stop],
  );
  if (!winner) void fetch.then(orphaned, () => undefined);
  return winner;
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
