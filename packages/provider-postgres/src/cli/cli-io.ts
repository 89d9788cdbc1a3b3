/** Where `duro` reads its environment and writes its output; the process, or a test's capture. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Whether standard error is a terminal (progress bars redraw in place only then). */
  readonly stderrIsTty: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}
