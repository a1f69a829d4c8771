package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;
import static io.seqsync.config.SeqsyncConfig.isLoopback;

import java.time.Duration;

/**
 * The HTTP ingress. {@code replyBudget}: how long a send waits for its committed seq before
 * answering 202 (API.md). {@code commandLinger}: how long the ingress's producer waits for more
 * commands to send with one (Kafka's {@code linger.ms}). {@code streamCompression}: whether the push
 * stream accepts permessage-deflate when a client offers it.
 */
public record HttpSettings(String host, int port, Duration replyBudget, Duration commandLinger, boolean streamCompression) {
  public HttpSettings {
    require(!host.isBlank(), "http.host must not be blank");
    require(port >= 0 && port <= 65535, "http.port must be 0..65535");
    require(!replyBudget.isNegative(), "http.reply-budget must not be negative");
    require(!commandLinger.isNegative() && commandLinger.compareTo(Duration.ofSeconds(1)) <= 0,
        "http.command-linger must be 0..1s");
  }

  /** Whether the ingress listens on a loopback address only. */
  public boolean loopback() {
    return isLoopback(host);
  }
}
