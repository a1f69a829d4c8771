package io.seqsync.bench.chaos;

import io.seqsync.bench.BenchSupport;
import io.seqsync.testkit.ApiClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads the busy conversation's newest messages over and over, from each instance in turn: a page
 * {@code after} 20 below the highest seq answered 200 before the read began must hold every message
 * answered 200 at a seq above that, at its seq (whether a replica or the primary answered: a stale
 * replica's page is the failure this looks for). Records each read: when it began (nanoTime), its
 * status (0: no answer), how many acknowledged messages it missed.
 */
final class PageWatch {
  record Read(long at, int status, int missed) {}

  /** Every read so far. */
  final ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();

  PageWatch(List<ApiClient> apps, SteadySender sending) {
    String conv = SteadySender.conversation(0);
    BenchSupport.daemonThreads("chaos-pages-").newThread(() -> {
      for (int app = 0; ; app++) { // a daemon thread: until the run ends
        long at = System.nanoTime();
        Map<Long, String> acknowledged = new HashMap<>();
        sending.sends().values().stream().map(SteadySender.Send::done)
            .filter(d -> d != null && d.convId().equals(conv) && d.stored() < at)
            .forEach(d -> acknowledged.put(d.seq(), d.clientMsgId()));
        long after = Math.max(0, acknowledged.keySet().stream().mapToLong(Long::longValue).max().orElse(0) - 20);
        try {
          ApiClient.Response page = apps.get(app % apps.size()).get("/v1/conversations/" + conv + "/messages?after=" + after);
          Map<Long, String> held = new HashMap<>();
          page.body().path("messages").forEach(m -> held.put(m.path("seq").asLong(), m.path("clientMsgId").asText()));
          reads.add(new Read(at, page.status(), page.status() != 200 ? 0 : (int) acknowledged.entrySet().stream()
              .filter(e -> e.getKey() > after && !e.getValue().equals(held.get(e.getKey()))).count()));
        } catch (RuntimeException noAnswer) {
          reads.add(new Read(at, 0, 0));
        }
        BenchSupport.sleep(200);
      }
    }).start();
  }
}
