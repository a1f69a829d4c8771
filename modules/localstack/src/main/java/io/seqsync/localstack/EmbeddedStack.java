package io.seqsync.localstack;

import io.seqsync.config.EmbeddedServers;
import io.seqsync.config.SeqsyncConfig;

/** This module as the app's {@link EmbeddedServers} (a {@link java.util.ServiceLoader} service): {@link LocalStack}. */
public final class EmbeddedStack implements EmbeddedServers {
  @Override
  public Running start(SeqsyncConfig config) {
    return LocalStack.start(config);
  }
}
