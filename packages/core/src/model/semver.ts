/** A semantic version without pre-release or build parts, as duroxide pins executions with. */
export interface SemverVersion {
  /** The major version. */
  readonly major: number;
  /** The minor version. */
  readonly minor: number;
  /** The patch version. */
  readonly patch: number;
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Parses `major.minor.patch` (pre-release and build suffixes are accepted and ignored).
 * @throws {TypeError} naming the text when it is not a semantic version.
 */
export function parseSemver(text: string): SemverVersion {
  const match = SEMVER.exec(text.trim());
  if (!match) throw new TypeError(`not a semantic version: ${JSON.stringify(text)}`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

/** Formats a version as `major.minor.patch`. */
export function formatSemver(version: SemverVersion): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

/** Negative when `a < b`, zero when equal, positive when `a > b`. */
export function compareSemver(a: SemverVersion, b: SemverVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}
