package io.seqsync.ingress;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.ingress.commands.CommandPublisher;
import java.util.Map;

/** A command publisher with the default settings whose broker never answers: every produce fails after its timeout. */
final class UnreachableKafka {
  /** Where no broker listens. */
  static final String ADDRESS = "127.0.0.1:1";

  private UnreachableKafka() {}

  static CommandPublisher publisher() {
    SeqsyncConfig defaults = ConfigLoader.of(Map.of());
    return new CommandPublisher(KafkaConnection.plain(ADDRESS), Topics.from(defaults.kafka()).commands(), defaults.http().commandLinger());
  }
}
