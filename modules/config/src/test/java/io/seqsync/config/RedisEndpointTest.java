package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** redis.uri names one server or a Redis Cluster; anything else is refused at start with the reason. */
class RedisEndpointTest {
  @Test
  void oneServerKeepsItsUriAndSeveralNodesAreACluster() {
    RedisEndpoint single = RedisEndpoint.parse("redis://:secret@cache.internal:6380/2");
    assertThat(single.cluster()).isFalse();
    assertThat(single.nodes()).containsExactly(new RedisEndpoint.Node("cache.internal", 6380));
    assertThat(single.uri()).isEqualTo("redis://:secret@cache.internal:6380/2");
    assertThat(RedisEndpoint.parse("redis://localhost").first().port()).isEqualTo(6379);

    RedisEndpoint cluster = RedisEndpoint.parse("redis://10.0.0.1:7000, 10.0.0.2:7001,10.0.0.3:7002");
    assertThat(cluster.cluster()).isTrue();
    assertThat(cluster.nodes()).extracting(RedisEndpoint.Node::toString)
        .isEqualTo(List.of("10.0.0.1:7000", "10.0.0.2:7001", "10.0.0.3:7002"));
    RedisEndpoint named = RedisEndpoint.parse("redis-cluster://redis-cluster.internal:6379");
    assertThat(named.cluster()).isTrue();
    assertThat(named.nodes()).containsExactly(new RedisEndpoint.Node("redis-cluster.internal", 6379));
  }

  @Test
  void malformedUrisAreRefusedWhenTheConfigurationIsRead() {
    assertThatThrownBy(() -> RedisEndpoint.parse("http://host:6379")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("redis://");
    assertThatThrownBy(() -> RedisEndpoint.parse("redis://a:7000,b")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> RedisEndpoint.parse("redis://a:7000,b:port")).hasMessageContaining("not a port");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("redis.uri", "redis-cluster://"))).isInstanceOf(ConfigException.class);
  }

  @Test
  void redissIsTlsAndTheAclLoginComesBeforeTheNodes() {
    RedisEndpoint single = RedisEndpoint.parse("rediss://seqsync-app:p%40ss@cache.internal:6380/2");
    assertThat(single.tls()).isTrue();
    assertThat(single.cluster()).isFalse();
    assertThat(single.login()).contains(new RedisEndpoint.Login("seqsync-app", "p@ss"));
    assertThat(single.nodes()).containsExactly(new RedisEndpoint.Node("cache.internal", 6380));
    assertThat(single.database()).isEqualTo(2);
    assertThat(single.toString()).doesNotContain("p@ss").doesNotContain("p%40ss");
    assertThat(RedisEndpoint.parse("redis://:secret@localhost").login()).contains(new RedisEndpoint.Login("", "secret"));
    assertThat(RedisEndpoint.parse("redis://localhost").login()).isEmpty();

    RedisEndpoint cluster = RedisEndpoint.parse("rediss://app:pw@10.0.0.1:7000,10.0.0.2:7001");
    assertThat(cluster.tls()).isTrue();
    assertThat(cluster.cluster()).isTrue();
    assertThat(cluster.login()).contains(new RedisEndpoint.Login("app", "pw"));
    assertThat(cluster.nodes()).extracting(RedisEndpoint.Node::toString).containsExactly("10.0.0.1:7000", "10.0.0.2:7001");
    RedisEndpoint named = RedisEndpoint.parse("rediss-cluster://app:pw@redis.internal:6379");
    assertThat(named.tls()).isTrue();
    assertThat(named.cluster()).isTrue();
    assertThat(named.nodes()).containsExactly(new RedisEndpoint.Node("redis.internal", 6379));
    assertThat(RedisEndpoint.parse("redis://10.0.0.1:7000,10.0.0.2:7001").tls()).isFalse();
  }
}
