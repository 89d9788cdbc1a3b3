/** Violations a result lists in full; the rest are only counted. */
const LISTED_VIOLATIONS = 20;

/** The verdict of one invariant. */
export interface InvariantResult {
  /** Kebab-case name, stable for scripts reading the JSON report. */
  readonly name: string;
  readonly passed: boolean;
  /** One line on what was checked and found. */
  readonly summary: string;
  /** Numbers behind the verdict. */
  readonly figures: Readonly<Record<string, number | string | null>>;
  /** How many violations there were. */
  readonly violationCount: number;
  /** The first violations, described. */
  readonly violations: readonly string[];
}

/** A result that passed when `violations` is empty. */
export function invariantResult(
  name: string,
  summary: string,
  figures: Record<string, number | string | null>,
  violations: readonly string[],
): InvariantResult {
  return {
    name,
    passed: violations.length === 0,
    summary,
    figures,
    violationCount: violations.length,
    violations: violations.slice(0, LISTED_VIOLATIONS),
  };
}
