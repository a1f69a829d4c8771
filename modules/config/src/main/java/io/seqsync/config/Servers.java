package io.seqsync.config;

import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The servers a seqsync process uses, each the configured one or, when none is configured, an
 * embedded one: the endpoints resolved ({@link Endpoints}) and the embedded servers started, when
 * this build has them ({@link EmbeddedServers}). Closing stops what was started. Thread-safe.
 */
public final class Servers implements AutoCloseable {
  private final Endpoints endpoints;
  private final Optional<EmbeddedServers.Running> embedded;

  private Servers(Endpoints endpoints, Optional<EmbeddedServers.Running> embedded) {
    this.endpoints = endpoints;
    this.embedded = embedded;
  }

  /**
   * The configured servers, with embedded ones started for those not configured, under
   * {@code config.dataDir()}; returns when all of them serve.
   *
   * @throws ConfigException when a server is not configured and this build has no embedded servers
   */
  public static Servers start(SeqsyncConfig config) {
    Set<Endpoints.Server> unconfigured = Endpoints.unconfigured(config);
    if (unconfigured.isEmpty()) {
      return new Servers(Endpoints.resolve(config, new Endpoints(null, null, null, null, null, null)), Optional.empty());
    }
    EmbeddedServers provider = ServiceLoader.load(EmbeddedServers.class).findFirst().orElseThrow(() -> new ConfigException(
        "no address configured for " + unconfigured + " and this build has no embedded servers (a production build):"
            + " set kafka.bootstrap-servers, postgres.jdbc-url and redis.uri"));
    EmbeddedServers.Running running = provider.start(config);
    return new Servers(running.endpoints(), Optional.of(running));
  }

  /** Whether this build has embedded servers (the development build; a production build has none). */
  public static boolean embeddedAvailable() {
    return ServiceLoader.load(EmbeddedServers.class).findFirst().isPresent();
  }

  public Endpoints endpoints() {
    return endpoints;
  }

  /** Makes the object store serve: starts the embedded one on its first call; a configured one is left alone. */
  public void startObjectStore() {
    embedded.ifPresent(EmbeddedServers.Running::startObjectStore);
  }

  @Override
  public void close() {
    embedded.ifPresent(EmbeddedServers.Running::close);
  }
}
