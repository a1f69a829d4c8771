package io.seqsync.app;

import io.seqsync.config.ConfigException;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.ingress.auth.Tokens;

/** What must hold before anything starts. */
final class StartupChecks {
  private StartupChecks() {}

  /**
   * The token signer and verifier. The development secret is published in the source, so it is
   * accepted only for the all-embedded local stack; anywhere else a real secret is required.
   */
  static Tokens tokens(SeqsyncConfig config) {
    boolean devSecret = config.auth().secret().map(Tokens.DEV_SECRET::equals).orElse(true);
    if (devSecret && !config.fullyEmbedded()) {
      throw new ConfigException("set SEQSYNC_AUTH_SECRET (auth.secret) to a secret of at least "
          + Tokens.MIN_SECRET_BYTES + " bytes: the development secret is only for the embedded default");
    }
    try {
      return Tokens.withSecret(config.auth().secret());
    } catch (IllegalArgumentException e) {
      throw new ConfigException("auth.secret: " + e.getMessage());
    }
  }
}
