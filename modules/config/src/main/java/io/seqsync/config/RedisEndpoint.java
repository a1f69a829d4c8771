package io.seqsync.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where Redis is, parsed from {@code redis.uri}: one server, {@code redis://host:port} (user,
 * password and database as Redis URIs allow), or a Redis Cluster, {@code redis://h1:p1,h2:p2,...}
 * (several nodes: any of them lets the client find the rest) or {@code redis-cluster://host:port[,...]}
 * (a cluster named by one node). {@code rediss://} and {@code rediss-cluster://} are the same over TLS.
 * An ACL user and password go before the nodes in every form ({@code rediss://user:pass@h1:p1,h2:p2}).
 * {@code uri} is the text as configured; {@code truststore} the CAs TLS trusts when not the JVM's
 * ({@link #trusting}). {@link #toString} leaves out the password. Immutable.
 */
public record RedisEndpoint(String uri, List<Node> nodes, boolean cluster, boolean tls, Optional<Login> login,
    Optional<KeyStoreFile> truststore) {
  private static final String SINGLE = "redis://";
  private static final String CLUSTER = "redis-cluster://";

  /** A node's address. */
  public record Node(String host, int port) {
    @Override
    public String toString() {
      return host + ":" + port;
    }
  }

  /** Redis's AUTH: an ACL user (empty: the default user) and its password. */
  public record Login(String user, String password) {
    @Override
    public String toString() {
      return user.isEmpty() ? "(default user)" : user;
    }
  }

  public RedisEndpoint {
    nodes = List.copyOf(nodes);
    if (nodes.isEmpty()) {
      throw new ConfigException("redis.uri names no node: '" + uri + "'");
    }
  }

  /** Plain, no login: a test's or an embedded server's. */
  public RedisEndpoint(String uri, List<Node> nodes, boolean cluster) {
    this(uri, nodes, cluster, false, Optional.empty(), Optional.empty());
  }

  /** The endpoint {@code text} names, or a {@link ConfigException} saying why it names none. */
  public static RedisEndpoint parse(String text) {
    String trimmed = text.trim();
    boolean tls = trimmed.startsWith("rediss");
    String plain = tls ? "redis" + trimmed.substring("rediss".length()) : trimmed;
    boolean clusterScheme = plain.startsWith(CLUSTER);
    if (!clusterScheme && !plain.startsWith(SINGLE)) {
      throw new ConfigException("redis.uri must start with redis:// or rediss:// (one server, or a cluster's nodes"
          + " separated by commas) or redis-cluster:// or rediss-cluster://, got '" + text + "'");
    }
    String rest = plain.substring(clusterScheme ? CLUSTER.length() : SINGLE.length());
    int at = rest.lastIndexOf('@', rest.indexOf('/') < 0 ? rest.length() : rest.indexOf('/'));
    Optional<Login> login = at < 0 ? Optional.empty() : Optional.of(login(rest.substring(0, at)));
    rest = rest.substring(at + 1);
    if (!clusterScheme && !rest.contains(",")) {
      URI uri = URI.create(SINGLE + rest);
      if (uri.getHost() == null) {
        throw new ConfigException("redis.uri must name a host: '" + text + "'");
      }
      return new RedisEndpoint(trimmed, List.of(new Node(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort())), false,
          tls, login, Optional.empty());
    }
    int path = rest.indexOf('/');
    List<Node> nodes = new ArrayList<>();
    for (String node : (path < 0 ? rest : rest.substring(0, path)).split(",")) {
      nodes.add(node(node.trim(), text));
    }
    return new RedisEndpoint(trimmed, nodes, true, tls, login, Optional.empty());
  }

  // user:password, :password or password, percent-encoded as in a URI.
  private static Login login(String userInfo) {
    String decoded = URI.create("redis://" + userInfo + "@host").getUserInfo();
    int colon = decoded.indexOf(':');
    return colon < 0 ? new Login("", decoded) : new Login(decoded.substring(0, colon), decoded.substring(colon + 1));
  }

  private static Node node(String hostPort, String text) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostPort.length() - 1) {
      throw new ConfigException("redis.uri: each node of a cluster is host:port, got '" + hostPort + "'");
    }
    try {
      return new Node(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new ConfigException("redis.uri: not a port in '" + hostPort + "'");
    }
  }

  /** This endpoint, its TLS trusting the CAs of {@code truststore} (when given) instead of the JVM's. */
  public RedisEndpoint trusting(Optional<KeyStoreFile> truststore) {
    return new RedisEndpoint(uri, nodes, cluster, tls, login, truststore);
  }

  /** The first node: the one a single server is, or the first a cluster's client tries. */
  public Node first() {
    return nodes.get(0);
  }

  /** The database a one-server URI names ({@code /2}), 0 when none. */
  public int database() {
    if (cluster) {
      return 0;
    }
    String path = URI.create(uri).getPath();
    return path == null || path.length() <= 1 ? 0 : Integer.parseInt(path.substring(1));
  }

  @Override
  public String toString() {
    return (tls ? "rediss://" : "redis://") + login.map(user -> user + "@").orElse("") + nodes
        + (cluster ? " (cluster)" : "");
  }
}
