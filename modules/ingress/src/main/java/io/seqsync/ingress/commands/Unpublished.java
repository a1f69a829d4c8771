package io.seqsync.ingress.commands;

import io.seqsync.ingress.http.ApiException;
import io.seqsync.store.keys.KeyStoreUnavailableException;
import java.util.concurrent.CompletionException;

/**
 * The 503 of a command that was not produced, naming what failed: its conversation's database
 * (down, so it was never sent to Kafka), the key store (its text's key could not be stored, so the
 * same) or Kafka. Stateless.
 */
public final class Unpublished {
  private Unpublished() {}

  /**
   * {@code database_unavailable} when the conversation's shard is down, {@code key_store_unavailable}
   * when sealing failed, else {@code kafka_unavailable} with {@code kafkaMessage}.
   */
  public static ApiException unavailable(Throwable error, String kafkaMessage) {
    Throwable cause = error;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof DatabaseUnavailableException) {
      return ApiException.retryLater(503, "database_unavailable",
          "the conversation's database (its PostgreSQL shard) is down, so nothing was sent; retry it", 1);
    }
    if (cause instanceof KeyStoreUnavailableException) {
      return ApiException.unavailable("key_store_unavailable",
          "the key store (PostgreSQL) could not store the text's key, so nothing was sent; retry it");
    }
    return ApiException.unavailable("kafka_unavailable", kafkaMessage);
  }
}
