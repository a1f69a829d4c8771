package io.seqsync.config;

/** A setting is missing, malformed or out of range; the message names it. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
