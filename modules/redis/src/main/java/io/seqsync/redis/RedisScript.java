package io.seqsync.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script that Redis runs by its SHA-1 (EVALSHA): an EVAL sends the whole text every time, and
 * Redis hashes it before it runs a command, for every message. When Redis does not have the script
 * (it was restarted, or SCRIPT FLUSH), it answers NOSCRIPT and the script is run once more with its
 * text (EVAL), which also caches it: loaded again on the node that lacked it, since in a Redis
 * Cluster each master keeps its own script cache and the keys choose the master. The text comes
 * from resource files under {@code redis/} (Lua, not Java strings), read once. Immutable, thread-safe.
 */
final class RedisScript {
  private final String text;
  private final String sha1;

  RedisScript(String text) {
    this.text = text;
    this.sha1 = sha1(text);
  }

  /**
   * The script made of the resource files {@code redis/<name>} in this order, joined: the
   * functions of {@code lib/} first, then the body that calls them.
   */
  static RedisScript load(String... names) {
    StringBuilder text = new StringBuilder();
    for (String name : names) {
      try (InputStream in = RedisScript.class.getClassLoader().getResourceAsStream("redis/" + name)) {
        if (in == null) {
          throw new IllegalStateException("Lua script redis/" + name + " is missing from the class path");
        }
        text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read redis/" + name, e);
      }
    }
    return new RedisScript(text.toString());
  }

  /** Runs the script now. */
  Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
    try {
      return redis.evalsha(sha1, keys, args);
    } catch (JedisNoScriptException missing) {
      return redis.eval(text, keys, args);
    }
  }

  /** Queues the script in {@code pipeline}; once it has synced, {@link Queued#runIfMissing} mends a NOSCRIPT. */
  Queued queue(AbstractPipeline pipeline, List<String> keys, List<String> args) {
    return new Queued(this, keys, args, pipeline.evalsha(sha1, keys, args));
  }

  /** Queues the script with its text (EVAL, which also caches it): for a script run once in a while. */
  void queueWithText(AbstractPipeline pipeline, List<String> keys, List<String> args) {
    pipeline.eval(text, keys, args);
  }

  /** A script queued in a pipeline. */
  record Queued(RedisScript script, List<String> keys, List<String> args, Response<Object> reply) {
    /** After the pipeline synced: whether Redis answered NOSCRIPT. */
    boolean missing() {
      try {
        reply.get();
        return false;
      } catch (JedisNoScriptException noScript) {
        return true;
      } catch (RuntimeException otherError) {
        // As for a pipeline's other commands: not retried here.
        return false;
      }
    }

    /** Queues the script again, with its text, in {@code pipeline} if Redis did not have it. */
    void runIfMissing(AbstractPipeline pipeline) {
      if (missing()) {
        script.queueWithText(pipeline, keys, args);
      }
    }
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }
}
