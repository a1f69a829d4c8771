package io.seqsync.store.keys;

/**
 * A text could not be sealed because its key could not be stored: the key store (PostgreSQL, the
 * home shard) failed or its writer is closed. Nothing was produced; the request may be retried.
 */
public final class KeyStoreUnavailableException extends RuntimeException {
  public KeyStoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
