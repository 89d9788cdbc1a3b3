/** One line of a diff: kept (` `), removed (`-`) or added (`+`). */
export interface DiffLine {
  readonly mark: ' ' | '-' | '+';
  readonly text: string;
}

/**
 * A full-context line diff of two texts (every line of both appears once), from their longest
 * common subsequence. Quadratic in lines, which is fine for function bodies and catalogs of a
 * few hundred lines.
 */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  const rows = before.length + 1;
  const cols = after.length + 1;
  // common[i * cols + j] = length of the LCS of before[i..] and after[j..]
  const common = new Uint32Array(rows * cols);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * cols + j] =
        before[i] === after[j]
          ? (common[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * cols + j] ?? 0, common[i * cols + j + 1] ?? 0);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const b = before[i];
    const a = after[j];
    if (b !== undefined && a !== undefined && b === a) {
      lines.push({ mark: ' ', text: b });
      i++;
      j++;
    } else if (
      b !== undefined &&
      (a === undefined || (common[(i + 1) * cols + j] ?? 0) >= (common[i * cols + j + 1] ?? 0))
    ) {
      lines.push({ mark: '-', text: b });
      i++;
    } else if (a !== undefined) {
      lines.push({ mark: '+', text: a });
      j++;
    }
  }
  return lines;
}

/** True when a diff has a removed or added line. */
export function hasChanges(lines: readonly DiffLine[]): boolean {
  return lines.some((l) => l.mark !== ' ');
}
