package io.seqsync.ingress.commands;

/** A command refused before Kafka: the database that would store its conversation is down. */
public final class DatabaseUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DatabaseUnavailableException(String convId) {
    super("the database of conversation " + convId + " is down", null, false, false);
  }
}
