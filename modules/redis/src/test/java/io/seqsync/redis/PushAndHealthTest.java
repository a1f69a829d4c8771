package io.seqsync.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.RedisEndpoint;
import io.seqsync.localstack.RedisTopology;
import io.seqsync.store.StoredMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;

/**
 * Push notices published through the app's client reach a subscriber on another node (on a
 * cluster, PUBLISH is broadcast to every node), and Redis's health probe: up on one Redis and on a
 * cluster, and on a cluster, a master that crashed and came back is told apart as restarted.
 */
@ParameterizedClass
@EnumSource(RedisTopology.class)
class PushAndHealthTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir static Path dir;
  @Parameter RedisTopology topology;
  private static RedisTopology.Running server;
  private static RedisEndpoint endpoint;
  private static UnifiedJedis redis;

  @BeforeParameterizedClassInvocation
  static void start(RedisTopology topology) {
    server = topology.start(dir.resolve(topology.name()));
    endpoint = RedisEndpoint.parse(server.uri());
    redis = RedisClients.connect(endpoint);
  }

  @AfterParameterizedClassInvocation
  static void stop() {
    redis.close();
    server.close();
  }

  @Test
  void publishedNoticesReachASubscriberOnTheLastNode() throws Exception {
    BlockingQueue<String> received = new LinkedBlockingQueue<>();
    RedisEndpoint lastNode = new RedisEndpoint(endpoint.uri(), List.of(endpoint.nodes().get(endpoint.nodes().size() - 1)),
        endpoint.cluster());
    try (RedisSubscription subscription = new RedisSubscription(lastNode, new JedisPubSub() {
      @Override
      public void onMessage(String channel, String message) {
        received.add(message);
      }
    }, false, PushNotice.channel("instance-a"))) {
      await(subscription::isSubscribed);
      List<String> lines = new ArrayList<>();
      for (int seq = 1; seq <= 3; seq++) {
        PushNotice.message(new StoredMessage(seq, "d:1:2", seq, 1, "phone", "c" + seq, "text", "m" + seq, seq, false,
            null, null))
            .address(List.of(2L), lines);
      }
      try (AbstractPipeline pipeline = redis.pipelined()) {
        PushNotice.publish(pipeline, "instance-a", lines);
      }
      String publication = received.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(publication).as("published through %s", topology).isNotNull();
      assertThat(PushNotice.lines(publication)).isEqualTo(lines);
    }
  }

  @Test
  void theProbeSeesRedisUpAndOnAClusterAMasterThatRestarted() throws Exception {
    List<Boolean> backs = new ArrayList<>();
    try (RedisHealth health = new RedisHealth(endpoint)) {
      health.addListener(restarted -> {
        synchronized (backs) {
          backs.add(restarted);
        }
      });
      assertThat(health.available()).as(health.lastFailure()).isTrue();
      assertThat(health.cluster()).isEqualTo(topology == RedisTopology.CLUSTER);
      if (topology == RedisTopology.CLUSTER) {
        server.restartMasterNotHolding("any key");
        await(() -> {
          synchronized (backs) {
            return backs.contains(true);
          }
        });
        await(health::available);
      }
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited %s", WAIT).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
