package io.seqsync.bench.chaos;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The chaos run's markdown: one row per fault window, then the whole run. */
final class ChaosReport {
  private ChaosReport() {}

  static String render(Instant began, int rate, Map<String, SteadySender.Send> sends, List<Long> pushes,
      List<ChaosRun.Window> windows, ChaosCheck.Holding eventLog, ChaosCheck.Holding postgres) {
    Map<String, Integer> logCopies = eventLog.copies();
    Map<String, Integer> pgCopies = postgres.copies();
    Map<String, Long> logSeqs = eventLog.seqs();
    // A missing seq is put down to the send numbered just before it.
    Map<String, Long> triedBySeq = new HashMap<>();
    sends.values().forEach(send -> {
      Long seq = logSeqs.get(send.clientMsgId);
      if (seq != null) {
        triedBySeq.put(send.conv + "#" + seq, send.firstTried);
      }
    });
    List<String> gaps = new ArrayList<>(eventLog.gaps());
    postgres.gaps().stream().filter(gap -> !gaps.contains(gap)).forEach(gaps::add);

    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Chaos run from %s, %d sends/s offered; %,d sends, %,d pushes of the busy"
        + " conversation received.%n%n", began, rate, sends.size(), pushes.size()));
    out.append("| fault | sends tried | acknowledged | lost | duplicated | seq gaps | wrong seq answered |"
        + " first attempts not 200 | sends failed until | longest wait for a 200 | push paused (longest gap) |\n");
    out.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (ChaosRun.Window window : windows) {
      List<SteadySender.Send> in = sends.values().stream()
          .filter(send -> send.firstTried >= window.from() && send.firstTried < window.to()).toList();
      long windowGaps = gaps.stream().filter(gap -> {
        String[] parts = gap.split("#");
        Long before = triedBySeq.get(parts[0] + "#" + (Long.parseLong(parts[1]) - 1));
        return before != null && before >= window.from() && before < window.to();
      }).count();
      out.append(row(window.name(), in, logCopies, pgCopies, logSeqs, windowGaps, window.from(), pushGap(pushes, window)));
    }
    out.append(row("whole run", sends.values(), logCopies, pgCopies, logSeqs, gaps.size(), 0, -1));
    if (!gaps.isEmpty()) {
      out.append("\nseq gaps: ").append(gaps.subList(0, Math.min(20, gaps.size()))).append('\n');
    }
    return out.toString();
  }

  private static String row(String name, Collection<SteadySender.Send> sends, Map<String, Integer> logCopies,
      Map<String, Integer> pgCopies, Map<String, Long> logSeqs, long gaps, long from, long pushGap) {
    long acknowledged = sends.stream().filter(send -> send.acknowledged >= 0).count();
    long lost = sends.stream().filter(send -> send.acknowledged >= 0
        && (!logCopies.containsKey(send.clientMsgId) || !pgCopies.containsKey(send.clientMsgId))).count();
    long duplicated = sends.stream().filter(send -> logCopies.getOrDefault(send.clientMsgId, 0) > 1
        || pgCopies.getOrDefault(send.clientMsgId, 0) > 1).count();
    long wrongSeq = sends.stream().filter(send -> send.seq > 0 && !Long.valueOf(send.seq).equals(logSeqs.get(send.clientMsgId)))
        .count();
    List<SteadySender.Send> failed = sends.stream().filter(send -> send.firstAttemptFailed).toList();
    long failedUntil = failed.stream().mapToLong(send -> send.firstTried - from).max().orElse(0);
    long longestWait = sends.stream().filter(send -> send.stored >= 0).mapToLong(send -> send.stored - send.firstTried)
        .max().orElse(0);
    return String.format(Locale.ROOT, "| %s | %,d | %,d | %d | %d | %d | %d | %,d | %s | %.1f s | %s |%n", name, sends.size(),
        acknowledged, lost, duplicated, gaps, wrongSeq, failed.size(),
        failed.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f s", failedUntil / 1000.0), longestWait / 1000.0,
        pushGap < 0 ? "-" : String.format(Locale.ROOT, "%.1f s", pushGap / 1000.0));
  }

  // The longest time without a push of the busy conversation from the fault's start to the window's end.
  private static long pushGap(List<Long> pushes, ChaosRun.Window window) {
    long previous = window.from();
    long longest = 0;
    for (long at : pushes) {
      if (at > window.from() && at <= window.to()) {
        longest = Math.max(longest, at - previous);
        previous = at;
      }
    }
    return Math.max(longest, window.to() - previous);
  }
}
