import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** The kernel's clock ticks per second for `/proc` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;
const ticksToMs = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;

/** What the whole machine spent while a cell ran. */
export interface MachineSpent {
  readonly wallMs: number;
  /** Busy time of every core (all but idle and I/O wait, steal excluded), ms; NaN off Linux. */
  readonly busyMs: number;
  /**
   * Time the hypervisor ran something else while this machine's cores wanted to run, as a share
   * of all core time (`steal` in `/proc/stat`); NaN off Linux.
   */
  readonly stealShare: number;
  /** The one-minute load average when the cell began and when it ended. */
  readonly loadAverage: readonly [number, number];
}

/** Core ticks from the first line of `/proc/stat`, or NaN off Linux. */
function machineTicks(): { busy: number; steal: number; total: number } {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return { busy: Number.NaN, steal: Number.NaN, total: Number.NaN };
  }
  const line = stat.split('\n', 1)[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal ...
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    ticks;
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + idle + iowait + steal };
}

/** Starts watching the machine; the returned function tells what it spent since. */
export function startMachineMeter(): () => MachineSpent {
  const wallStart = performance.now();
  const start = machineTicks();
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  return () => {
    const end = machineTicks();
    return {
      wallMs: performance.now() - wallStart,
      busyMs: ticksToMs(end.busy - start.busy),
      stealShare: (end.steal - start.steal) / (end.total - start.total),
      loadAverage: [loadAtStart, loadavg()[0] ?? Number.NaN],
    };
  };
}

/** Starts counting this process's CPU; the returned function tells the ms spent since. */
export function startProcessMeter(): () => number {
  const start = process.cpuUsage();
  return () => {
    const spent = process.cpuUsage(start);
    return (spent.user + spent.system) / 1000;
  };
}

/** The fields of `/proc/PID/stat` the bench reads, or null for a process that is gone. */
function processStat(pid: number): { ppid: number; ownTicks: number; reapedTicks: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and parentheses; the fields that follow it do not.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (index: number): number => Number(fields[index - 3]);
  return {
    ppid: field(4),
    ownTicks: field(14) + field(15),
    reapedTicks: field(16) + field(17),
  };
}

/**
 * CPU time of a server process and all its children, ms: the postmaster, its live backends and
 * helpers, and every child it has reaped (their time moves into the parent's when it waits
 * for them, so the sum stays right as connections come and go). NaN when `/proc` does not show
 * the process (a server on another machine).
 */
export function processTreeCpuMs(root: number): number {
  const rootStat = processStat(root);
  if (rootStat === null) return Number.NaN;
  let ticks = rootStat.ownTicks + rootStat.reapedTicks;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = processStat(Number(entry));
    if (child?.ppid === root) ticks += child.ownTicks;
  }
  return ticksToMs(ticks);
}
