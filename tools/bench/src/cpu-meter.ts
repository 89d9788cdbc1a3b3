import { readFileSync } from 'node:fs';

/** CPU time spent while a cell ran, ms, besides the wall time it took. */
export interface CpuSpent {
  readonly wallMs: number;
  /** User and system time of this process (the runtime under test, the bench's own clients). */
  readonly processMs: number;
  /**
   * Busy time of every core of the machine (all but idle and I/O wait), which includes the
   * server when it runs here; NaN where `/proc/stat` cannot be read.
   */
  readonly machineMs: number;
}

/** The kernel's clock ticks per second for `/proc/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Busy ticks of all cores from the first line of `/proc/stat`, or NaN off Linux. */
function machineBusyTicks(): number {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return Number.NaN;
  }
  const total = stat.split('\n', 1)[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal ...
  const ticks = total.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return user + nice + system + irq + softirq + steal;
}

/** Starts counting; the returned function tells what was spent since. */
export function startCpuMeter(): () => CpuSpent {
  const wallStart = performance.now();
  const processStart = process.cpuUsage();
  const machineStart = machineBusyTicks();
  return () => {
    const spent = process.cpuUsage(processStart);
    return {
      wallMs: performance.now() - wallStart,
      processMs: (spent.user + spent.system) / 1000,
      machineMs: ((machineBusyTicks() - machineStart) * 1000) / TICKS_PER_SECOND,
    };
  };
}
