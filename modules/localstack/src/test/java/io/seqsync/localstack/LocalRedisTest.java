package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

class LocalRedisTest {

  @Test
  void keysSurviveARestart(@TempDir Path dir) {
    try (LocalRedis redis = LocalRedis.start(dir, 0);
        RedisClient client = RedisClient.create(URI.create(redis.uri()))) {
      client.set("greeting", "hello");
    }

    try (LocalRedis redis = LocalRedis.start(dir, 0);
        RedisClient client = RedisClient.create(URI.create(redis.uri()))) {
      assertThat(client.get("greeting")).isEqualTo("hello");
    }
  }
}
