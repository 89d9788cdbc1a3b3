import { assert, expect } from 'vitest';
import type { Event } from '../../model/event.js';
import { formatSemver, type SemverVersion } from '../../model/semver.js';
import type { DispatcherCapabilityFilter } from '../../provider/fetch-filters.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { eventWithId, startItem, testOrchStarted } from '../support/fixtures.js';

/** Instance lock the `capability_filtering` validations fetch with, ms. */
export const PINNED_LOCK_MS = 30_000;

/** A semantic version from its parts. */
export function semver(major: number, minor: number, patch: number): SemverVersion {
  return { major, minor, patch };
}

/** A capability filter accepting the one inclusive range `[min, max]`. */
export function filterForRange(min: SemverVersion, max: SemverVersion): DispatcherCapabilityFilter {
  return { supportedDuroxideVersions: [{ min, max }] };
}

/** `TestOrch`'s `OrchestrationStarted` (event 1) stamped with another `duroxideVersion`. */
export function startedEventStamped(
  instance: string,
  duroxideVersion: string,
  executionId = 1,
): Event {
  return { ...eventWithId(1, instance, executionId, null, testOrchStarted()), duroxideVersion };
}

/** A zero-wait orchestration fetch through `filter` (`null`: no capability filtering). */
export function fetchWithFilter(
  provider: Provider,
  filter: DispatcherCapabilityFilter | null,
  lockTimeoutMs = PINNED_LOCK_MS,
): Promise<FetchedOrchestrationItem | null> {
  return provider.fetchOrchestrationItem(lockTimeoutMs, 0, filter);
}

/**
 * Fetches through `filter` and fails the validation unless an item comes back; `message` says
 * why one was expected.
 */
export async function expectFetchable(
  provider: Provider,
  filter: DispatcherCapabilityFilter | null,
  message: string,
): Promise<FetchedOrchestrationItem> {
  const fetched = await fetchWithFilter(provider, filter);
  assert(fetched !== null, message);
  return fetched;
}

/** Fetches through `filter` and fails the validation if an item comes back. */
export async function expectNotFetchable(
  provider: Provider,
  filter: DispatcherCapabilityFilter | null,
  message: string,
): Promise<void> {
  expect(await fetchWithFilter(provider, filter), message).toBeNull();
}

/** Enqueues an `ExternalRaised` named `name`, giving the instance visible work again. */
export function ping(provider: Provider, instance: string, name = 'ping'): Promise<void> {
  return provider.enqueueForOrchestrator(
    { type: 'ExternalRaised', instance, name, data: '{}' },
    null,
  );
}

/**
 * Creates `instance` with execution 1 pinned at `pinned` and leaves it with visible work: the
 * first ack stores the pinned version and enqueues a `ping` in the same transaction, so seeding
 * several instances on one provider cannot race. Instances of earlier seeds that the fetch
 * locks on the way are abandoned again (without counting the attempt).
 * @throws {AssertionError} when the start cannot be fetched.
 */
export async function seedInstanceWithVersion(
  provider: Provider,
  instance: string,
  pinned: SemverVersion,
): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const othersLocked: string[] = [];
  let ours: FetchedOrchestrationItem | null = null;
  while (ours === null) {
    const fetched = await fetchWithFilter(provider, null);
    assert(fetched !== null, 'Should have work available');
    if (fetched.item.instance === instance) ours = fetched;
    else othersLocked.push(fetched.lockToken);
  }

  await provider.ackOrchestrationItem(
    ours.lockToken,
    1,
    [startedEventStamped(instance, formatSemver(pinned))],
    [],
    [{ type: 'ExternalRaised', instance, name: 'ping', data: '{}' }],
    { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0', pinnedDuroxideVersion: pinned },
    [],
  );

  // As in duroxide, a failed release only leaves that lock to expire; the seed itself is done.
  for (const lockToken of othersLocked) {
    await provider.abandonOrchestrationItem(lockToken, null, true).catch(() => undefined);
  }
}
