package io.seqsync.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.RedisEndpoint;
import io.seqsync.localstack.RedisTopology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.UnifiedJedis;

/**
 * The registry of live push sockets on a real Redis, one server and a cluster: devices come and
 * go, hide and show, a newer socket of a device replaces the older one, and the sockets of an
 * instance that stopped beating age out into a last seen time. Times are passed in, so nothing
 * here sleeps; reads use the wall clock, so the test's times are the wall clock's too.
 */
@ParameterizedClass
@EnumSource(RedisTopology.class)
class SocketRegistryTest {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final AtomicLong USERS = new AtomicLong(System.nanoTime() % 1_000_000_000L);

  @TempDir static Path dir;
  @Parameter RedisTopology topology;
  private static RedisTopology.Running server;
  private static UnifiedJedis redis;
  private static SocketRegistry registry;

  @BeforeParameterizedClassInvocation
  static void start(RedisTopology topology) {
    server = topology.start(dir.resolve(topology.name()));
    redis = RedisClients.connect(RedisEndpoint.parse(server.uri()));
    registry = new SocketRegistry(redis, TTL);
  }

  @AfterParameterizedClassInvocation
  static void stop() {
    redis.close();
    server.close();
  }

  @Test
  void devicesComeHideAndGoAcrossSockets() {
    long user = USERS.incrementAndGet();
    long now = System.currentTimeMillis();
    SocketRegistry.Socket phone = new SocketRegistry.Socket(user, "phone", "s1", false);
    SocketRegistry.Socket laptop = new SocketRegistry.Socket(user, "laptop", "s2", true);

    assertThat(registry.liveDevices(user)).isEmpty();
    assertThat(registry.presence(List.of(user)).get(user)).isEqualTo(SocketRegistry.Presence.UNKNOWN);
    assertThat(registry.open(phone, now)).isEqualTo(new SocketRegistry.Change(false, true, false, true));
    assertThat(registry.open(laptop, now).changed()).as("a second device changes nothing others see").isFalse();
    assertThat(registry.liveDevices(user)).isEqualTo(Map.of("phone", false, "laptop", true));

    assertThat(registry.visibility(phone.withHidden(true), now)).isEqualTo(new SocketRegistry.Change(true, true, true, false));
    assertThat(registry.presence(List.of(user)).get(user)).isEqualTo(new SocketRegistry.Presence(true, false, 0));

    assertThat(registry.close(phone, now + 1).changed()).isFalse();
    assertThat(registry.close(laptop, now + 2)).isEqualTo(new SocketRegistry.Change(true, false, false, false));
    assertThat(registry.liveDevices(user)).isEmpty();
    assertThat(registry.presence(List.of(user)).get(user)).isEqualTo(new SocketRegistry.Presence(false, false, now + 2));
  }

  @Test
  void pushFindsTheInstancesHoldingEachUsersLiveSockets() {
    long alice = USERS.incrementAndGet();
    long bob = USERS.incrementAndGet();
    long carol = USERS.incrementAndGet();
    long now = System.currentTimeMillis();
    registry.open(new SocketRegistry.Socket(alice, "phone", SocketRegistry.socketId("a", "1"), false), now);
    registry.open(new SocketRegistry.Socket(alice, "laptop", SocketRegistry.socketId("b", "2"), false), now);
    registry.open(new SocketRegistry.Socket(bob, "phone", SocketRegistry.socketId("b", "3"), false), now);
    // Carol's instance died a ttl ago: her socket is not live, nothing is routed to it.
    registry.open(new SocketRegistry.Socket(carol, "phone", SocketRegistry.socketId("c", "4"), false),
        now - TTL.toMillis() - 1);

    assertThat(registry.instances(List.of(alice, bob, carol)))
        .isEqualTo(Map.of("a", Set.of(alice), "b", Set.of(alice, bob)));
  }

  @Test
  void aNewerSocketOfADeviceOutlivesTheOldOnesClose() {
    long user = USERS.incrementAndGet();
    long now = System.currentTimeMillis();
    SocketRegistry.Socket old = new SocketRegistry.Socket(user, "phone", "old", false);
    SocketRegistry.Socket newer = new SocketRegistry.Socket(user, "phone", "new", true);
    registry.open(old, now);
    registry.open(newer, now);
    assertThat(registry.close(old, now).changed()).isFalse();
    assertThat(registry.visibility(old, now).changed()).as("the old socket no longer speaks for the device").isFalse();
    assertThat(registry.liveDevices(user)).isEqualTo(Map.of("phone", true));
    assertThat(registry.refresh(List.of(old), now)).isEmpty();
    assertThat(registry.liveDevices(user)).as("a beat of the old socket did not bring it back").isEqualTo(Map.of("phone", true));
  }

  @Test
  void socketsThatStopBeatingAgeOutIntoALastSeenTime() {
    long user = USERS.incrementAndGet();
    long other = USERS.incrementAndGet();
    long now = System.currentTimeMillis();
    long longAgo = now - TTL.toMillis() - 5_000;
    // An instance that was killed beat for this socket last a ttl and 5 s ago.
    registry.open(new SocketRegistry.Socket(user, "killed", "k", false), longAgo);
    assertThat(registry.liveDevices(List.of(user, other))).isEqualTo(Map.of(user, Map.of(), other, Map.of()));
    assertThat(registry.presence(List.of(user)).get(user)).isEqualTo(new SocketRegistry.Presence(false, false, longAgo));

    SocketRegistry.Socket alive = new SocketRegistry.Socket(user, "alive", "a", false);
    assertThat(registry.open(alive, now).isOnline()).isTrue();
    assertThat(registry.refresh(List.of(alive), now + 1)).as("nothing changed for others").isEmpty();
    assertThat(registry.liveDevices(user)).isEqualTo(Map.of("alive", false));
    // The beats stop: a ttl later it is offline, last seen at its last beat; a close of it later changes nothing.
    registry.close(new SocketRegistry.Socket(user, "x", "none", false), now + 1 + TTL.toMillis());
    assertThat(registry.presence(List.of(user)).get(user).online()).isFalse();
    assertThat(registry.close(alive, now + 2 + TTL.toMillis()).changed()).isFalse();
  }

  @Test
  void aBeatWritesAgainWhatRedisLost() {
    long user = USERS.incrementAndGet();
    SocketRegistry.Socket socket = new SocketRegistry.Socket(user, "phone", "s", false);
    long now = System.currentTimeMillis();
    registry.open(socket, now);
    redis.del(SocketRegistry.key(user)); // as a Redis restarted without its data
    assertThat(registry.liveDevices(user)).isEmpty();
    assertThat(registry.refresh(List.of(socket), now + 1)).containsExactly(user);
    assertThat(registry.liveDevices(user)).isEqualTo(Map.of("phone", false));
  }
}
