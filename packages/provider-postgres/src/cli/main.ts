#!/usr/bin/env node
/**
 * The `duro` command: operates a duro store on PostgreSQL (migrations, instances, queues, and
 * `why` an instance is not running). See `duro --help`.
 * @packageDocumentation
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTty: process.stderr.isTTY === true,
  env: process.env,
});
