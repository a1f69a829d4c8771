package io.seqsync.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Where Redis is, parsed from {@code redis.uri}: one server, {@code redis://host:port} (user,
 * password and database as Redis URIs allow), or a Redis Cluster, {@code redis://h1:p1,h2:p2,...}
 * (several nodes: any of them lets the client find the rest) or {@code redis-cluster://host:port[,...]}
 * (a cluster named by one node). {@code uri} is the text as configured. Immutable.
 */
public record RedisEndpoint(String uri, List<Node> nodes, boolean cluster) {
  private static final String SINGLE = "redis://";
  private static final String CLUSTER = "redis-cluster://";

  /** A node's address. */
  public record Node(String host, int port) {
    @Override
    public String toString() {
      return host + ":" + port;
    }
  }

  public RedisEndpoint {
    nodes = List.copyOf(nodes);
    if (nodes.isEmpty()) {
      throw new ConfigException("redis.uri names no node: '" + uri + "'");
    }
  }

  /** The endpoint {@code text} names, or a {@link ConfigException} saying why it names none. */
  public static RedisEndpoint parse(String text) {
    String trimmed = text.trim();
    boolean clusterScheme = trimmed.startsWith(CLUSTER);
    if (!clusterScheme && !trimmed.startsWith(SINGLE)) {
      throw new ConfigException("redis.uri must start with redis:// (one server, or a cluster's nodes separated by"
          + " commas) or redis-cluster://, got '" + text + "'");
    }
    String rest = trimmed.substring(clusterScheme ? CLUSTER.length() : SINGLE.length());
    if (!clusterScheme && !rest.contains(",")) {
      URI uri = URI.create(trimmed);
      if (uri.getHost() == null) {
        throw new ConfigException("redis.uri must name a host: '" + text + "'");
      }
      return new RedisEndpoint(trimmed, List.of(new Node(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort())), false);
    }
    int path = rest.indexOf('/');
    List<Node> nodes = new ArrayList<>();
    for (String node : (path < 0 ? rest : rest.substring(0, path)).split(",")) {
      nodes.add(node(node.trim(), text));
    }
    return new RedisEndpoint(trimmed, nodes, true);
  }

  private static Node node(String hostPort, String text) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostPort.length() - 1) {
      throw new ConfigException("redis.uri: each node of a cluster is host:port, got '" + hostPort + "' in '" + text + "'");
    }
    try {
      return new Node(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new ConfigException("redis.uri: not a port in '" + hostPort + "' of '" + text + "'");
    }
  }

  /** The first node: the one a single server is, or the first a cluster's client tries. */
  public Node first() {
    return nodes.get(0);
  }
}
