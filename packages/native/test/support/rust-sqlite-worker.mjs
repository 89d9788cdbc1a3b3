// A Rust duroxide worker (src/rust_runtime/shared_worker.rs) on one SQLite file, in a process of
// its own: two copies of SQLite in one process (duroxide's and better-sqlite3's) must not open
// one file, since closing it in one drops the other's POSIX locks. Started with fork() and the
// file as argument; sends 'ready', and on 'stop' stops the worker, sends the `Side` inputs it
// ran, and exits.
import { startRustWorkerOnSqlite } from '../../index.js';

const worker = await startRustWorkerOnSqlite(process.argv[2]);
process.send({ type: 'ready' });
process.on('message', (message) => {
  if (message !== 'stop') return;
  void worker.stop().then(() => {
    process.send({ type: 'stopped', activityInputs: worker.activityInputs() }, () =>
      process.exit(0),
    );
  });
});
