package io.seqsync.bench.peer;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The knobs of scripts/bench-peer, as {@link PeerBenchmark} parsed them; the script passes the servers' places and ports. */
record PeerOptions(
    List<Integer> rates,
    int warmupSeconds,
    int durationSeconds,
    int conversations,
    int catchupMessages,
    int fillRate,
    int fetchers,
    int crashRate,
    int crashSeconds,
    int killAfterSeconds,
    Set<String> measurements,
    List<String> servers,
    Path dir,
    Path appJar,
    Ports seqsyncPorts,
    Path ejabberdctl,
    int xmppPort,
    String ejabberdDatabase,
    String seqsyncDatabase) {

  /** seqsync's HTTP, embedded Kafka and embedded Redis ports. */
  record Ports(int http, int kafka, int redis) {}
}
