import type { Command } from './command.js';
import { deleteCommand } from './commands/delete-command.js';
import { historyCommand } from './commands/history-command.js';
import { listCommand } from './commands/list-command.js';
import { migrateCommand } from './commands/migrate-command.js';
import { pruneCommand } from './commands/prune-command.js';
import { cancelCommand, enqueueCommand, raiseCommand } from './commands/signal-commands.js';
import { queueDepthsCommand, statsCommand } from './commands/stats-commands.js';
import { statusCommand } from './commands/status-command.js';
import { treeCommand } from './commands/tree-command.js';
import { uiCommand } from './commands/ui-command.js';
import { whyCommand } from './commands/why-command.js';

/** Every `duro` command, in the order `duro --help` lists them. */
export const COMMANDS: readonly Command[] = [
  migrateCommand,
  statusCommand,
  listCommand,
  historyCommand,
  treeCommand,
  whyCommand,
  raiseCommand,
  enqueueCommand,
  cancelCommand,
  deleteCommand,
  pruneCommand,
  statsCommand,
  queueDepthsCommand,
  uiCommand,
];
