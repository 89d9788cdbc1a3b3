/** Prefix that marks a generated child id; the parent id is prepended to it. @internal */
export const SUB_ORCH_AUTO_PREFIX = 'sub::';

/**
 * The full instance id of a sub-orchestration, from its parent's id and the `instance` of its
 * `SubOrchestrationScheduled` event: a generated suffix (`sub::5`) gets the parent's id in front
 * (`parent::sub::5`), an explicit id is the child's id as it is.
 */
export function childInstanceId(parentInstance: string, child: string): string {
  return child.startsWith(SUB_ORCH_AUTO_PREFIX) ? `${parentInstance}::${child}` : child;
}

/** Whether a root instance id uses the marker reserved for generated child ids. */
export function usesReservedRootMarker(instance: string): boolean {
  return instance.startsWith(SUB_ORCH_AUTO_PREFIX) || instance.includes('::sub::');
}
