package io.seqsync.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The machine's processes as /proc shows them at one moment: what the benchmarks' CPU meters add up. */
public final class ProcTable {
  /** USER_HZ on Linux: the unit of utime and stime. */
  public static final double CLOCK_TICKS = 100.0;

  /** One process: its parent, its name (cut to 15 characters), utime + stime in ticks, its command line. */
  public record Proc(long pid, long ppid, String comm, long ticks, String cmdline) {}

  private ProcTable() {}

  /** Every process readable now by pid (empty off Linux); one that ends meanwhile is left out. */
  public static Map<Long, Proc> read() {
    Map<Long, Proc> procs = new HashMap<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path dir : dirs) {
        try {
          String stat = Files.readString(dir.resolve("stat"));
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          if (open < 0 || close < 0) {
            continue;
          }
          // After "(comm) ": state is index 0, ppid 1, utime 11, stime 12 (fields 3, 4, 14, 15 of proc(5)).
          String[] f = stat.substring(close + 2).split(" ");
          long pid = Long.parseLong(dir.getFileName().toString());
          String cmdline = new String(Files.readAllBytes(dir.resolve("cmdline"))).replace('\0', ' ');
          procs.put(pid, new Proc(pid, Long.parseLong(f[1]), stat.substring(open + 1, close),
              Long.parseLong(f[11]) + Long.parseLong(f[12]), cmdline));
        } catch (IOException | RuntimeException e) {
          // the process ended meanwhile
        }
      }
    } catch (IOException e) {
      return Map.of(); // no /proc: nothing to report
    }
    return procs;
  }
}
