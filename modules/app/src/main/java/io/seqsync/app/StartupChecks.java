package io.seqsync.app;

import io.seqsync.config.ConfigException;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.config.Servers;
import io.seqsync.ingress.auth.Tokens;

/** What must hold before anything starts. */
final class StartupChecks {
  private StartupChecks() {}

  /**
   * The token signer and verifier. The development secret is published in the source, so it is
   * accepted only for the all-embedded local stack; anywhere else a real secret is required.
   */
  static Tokens tokens(SeqsyncConfig config) {
    return tokens(config, Servers.embeddedAvailable());
  }

  /** {@code developmentBuild}: this build has the embedded servers (a production build has none). */
  static Tokens tokens(SeqsyncConfig config, boolean developmentBuild) {
    if (config.auth().secret().filter(Tokens.DEV_SECRET::equals).isPresent()) {
      throw new ConfigException("auth.secret is the development secret, which is published in the source:"
          + " set a secret of your own, or leave it unset for the development stack");
    }
    if (config.auth().developmentSecret() && !developmentBuild) {
      throw new ConfigException("set SEQSYNC_AUTH_SECRET (auth.secret): a production build has no development secret");
    }
    if (config.auth().developmentSecret() && !config.fullyEmbedded()) {
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
