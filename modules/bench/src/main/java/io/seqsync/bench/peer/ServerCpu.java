package io.seqsync.bench.peer;

import io.seqsync.bench.ProcTable;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * CPU seconds of one server's processes: the process it was started as and everything below it,
 * and the processes whose command line names {@code marker} (seqsync's PostgreSQL, which detaches
 * from the JVM; ejabberd's PostgreSQL backends, named by their database) with what is below them.
 * Processes that ended between two readings (a killed server) take their CPU with them.
 */
final class ServerCpu {
  private static final long SELF = ProcessHandle.current().pid();

  private final LongSupplier rootPid;
  private final String marker;

  ServerCpu(LongSupplier rootPid, String marker) {
    this.rootPid = rootPid;
    this.marker = marker;
  }

  /** The processes' utime + stime now, in seconds. */
  double seconds() {
    Map<Long, ProcTable.Proc> procs = ProcTable.read();
    long root = rootPid.getAsLong();
    long ticks = 0;
    for (ProcTable.Proc proc : procs.values()) {
      if (counted(procs, proc, root)) {
        ticks += proc.ticks();
      }
    }
    return ticks / ProcTable.CLOCK_TICKS;
  }

  private boolean counted(Map<Long, ProcTable.Proc> procs, ProcTable.Proc proc, long root) {
    for (ProcTable.Proc at = proc; at != null; at = at.ppid() == at.pid() ? null : procs.get(at.ppid())) {
      if (at.pid() == root) {
        return true;
      }
      // The benchmark's own command line names both servers' places: never counted, nor what it started.
      if (at.pid() == SELF || at.cmdline().contains(marker)) {
        return at.pid() != SELF;
      }
    }
    return false;
  }
}
