package io.seqsync.redis;

import io.seqsync.config.RedisEndpoint;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.net.ssl.SSLParameters;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * The one client for a {@link RedisEndpoint}: a pool for one server, Jedis's cluster client for a
 * Redis Cluster (it learns the slots' masters from any node and follows MOVED). Both are a
 * {@link UnifiedJedis}, so the index, the list and push have one code path; what differs (a
 * script's keys must share a hash slot, SCAN runs per node) is handled where it matters.
 */
public final class RedisClients {
  private RedisClients() {}

  /** A client for {@code endpoint}; the caller closes it. */
  public static UnifiedJedis connect(RedisEndpoint endpoint) {
    // A command to a master that is down is retried (slots refreshed, the next attempt) for at most
    // 2 s, as one server's socket timeout: Jedis's default allows several times that, which a
    // request would wait before RedisHealth's probe (every second) tells everyone to skip Redis.
    return connect(endpoint, clientConfig(endpoint), 3, Duration.ofSeconds(2));
  }

  /**
   * A client for {@code endpoint} that waits at most {@code timeout} to connect and for each answer,
   * and does not retry: for callers that have a fallback and cannot wait (the abuse limits).
   */
  public static UnifiedJedis connect(RedisEndpoint endpoint, Duration timeout) {
    int millis = Math.toIntExact(Math.max(1, timeout.toMillis()));
    return connect(endpoint, clientConfig(endpoint).connectionTimeoutMillis(millis).socketTimeoutMillis(millis), 1, timeout);
  }

  @SuppressWarnings("deprecation") // JedisPooled: the pool the app always used; RedisClient's builder has other defaults
  private static UnifiedJedis connect(RedisEndpoint endpoint, DefaultJedisClientConfig.Builder config, int clusterAttempts,
      Duration clusterRetries) {
    if (!endpoint.cluster()) {
      return new JedisPooled(new HostAndPort(endpoint.first().host(), endpoint.first().port()),
          config.database(endpoint.database()).build());
    }
    Set<HostAndPort> nodes = new LinkedHashSet<>();
    endpoint.nodes().forEach(node -> nodes.add(new HostAndPort(node.host(), node.port())));
    return RedisClusterClient.builder().nodes(nodes).clientConfig(config.build()).maxAttempts(clusterAttempts)
        .maxTotalRetriesDuration(clusterRetries).build();
  }

  /**
   * A connection's settings for {@code endpoint}: its ACL user and password, and TLS (rediss://) with the
   * server's name checked against its certificate and the configured truststore's CAs, if any.
   */
  public static DefaultJedisClientConfig.Builder clientConfig(RedisEndpoint endpoint) {
    DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().ssl(endpoint.tls());
    endpoint.login().ifPresent(login -> config.user(login.user().isEmpty() ? null : login.user()).password(login.password()));
    if (endpoint.tls()) {
      SSLParameters checkName = new SSLParameters();
      checkName.setEndpointIdentificationAlgorithm("HTTPS");
      config.sslParameters(checkName);
      endpoint.truststore().ifPresent(store -> config.sslSocketFactory(store.trustingSocketFactory()));
    }
    return config;
  }

  /** Whether {@code redis} talks to a Redis Cluster. */
  @SuppressWarnings("deprecation") // JedisCluster: a cluster client made elsewhere
  static boolean isCluster(UnifiedJedis redis) {
    return redis instanceof RedisClusterClient || redis instanceof redis.clients.jedis.JedisCluster;
  }
}
