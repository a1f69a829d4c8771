package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The embedded servers' processes, found by their pid files and binaries (Linux's /proc where it helps). */
final class ServerProcesses {
  private ServerProcesses() {}

  /** The process whose id is the first line of {@code pidFile}, if the file names one that exists. */
  static Optional<ProcessHandle> fromPidFile(Path pidFile) {
    return pid(pidFile).flatMap(ProcessHandle::of);
  }

  // The first line of the pid file as a process id, when it is one.
  private static Optional<Long> pid(Path pidFile) {
    try {
      List<String> lines = Files.exists(pidFile) ? Files.readAllLines(pidFile, StandardCharsets.UTF_8) : List.of();
      return lines.isEmpty() || !lines.get(0).strip().matches("[1-9][0-9]{0,17}")
          ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + pidFile, e);
    }
  }

  /**
   * Whether {@code process} still runs: it exists (the handle knows its start time, so a reused
   * pid does not count) and is not a zombie waiting for its parent. A stopped (SIGSTOP) process runs.
   */
  static boolean isRunning(ProcessHandle process) {
    return process.isAlive() && !zombie(process.pid());
  }

  /** The processes running a binary under {@code dir} (e.g. a PostgreSQL's backends left by a killed postmaster). */
  static List<ProcessHandle> runningBinariesUnder(Path dir) {
    String prefix = dir.toAbsolutePath().normalize() + "/";
    return ProcessHandle.allProcesses().filter(process -> isRunning(process)
        && process.info().command().map(command -> command.startsWith(prefix)).orElse(false)).toList();
  }

  // /proc/<pid>/stat: "pid (name) S ...", the state after the last parenthesis; Z is a zombie.
  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
      int end = stat.lastIndexOf(')');
      return end >= 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
    } catch (IOException | UncheckedIOException e) {
      return false; // no /proc here, or it just ended: isAlive said enough
    }
  }
}
