package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Abuse limits (docs/api.md, "Limits"): token buckets of {@code rate} per second and {@code burst}
 * size, per device, per user or per socket, held in Redis across instances (each call waits at most
 * {@code redisTimeout}, else the instance's own buckets decide); a draft window per device and
 * conversation in which the last draft wins; the push sockets a user opens ({@code socketUser})
 * and holds at once.
 */
public record LimitsSettings(Rate sendDevice, Rate sendUser, Rate positionDevice, Rate draftDevice, Duration draftWindow,
    Rate groupUser, Rate telemetryDevice, Rate frameSocket, Rate socketUser, int socketsPerUser, Duration redisTimeout,
    Rate serverService) {
  public LimitsSettings {
    require(!draftWindow.isNegative(), "limits.draft.window must not be negative");
    require(socketsPerUser > 0, "limits.sockets-per-user must be positive");
    require(!redisTimeout.isNegative() && !redisTimeout.isZero(), "limits.redis-timeout must be positive");
  }

  /** The buckets' names, as their properties spell them ({@code limits.<name>.rate}, {@code .burst}). */
  public static final List<String> BUCKETS = List.of("send-device", "send-user", "position-device", "draft-device",
      "group-user", "telemetry-device", "frame-socket", "socket-user", "server-service");

  /**
   * Properties that raise every bucket's rate and burst, and the sockets a user may hold, to
   * {@code at}: for load tools and tests that drive the API far faster than people do, from few
   * devices. The draft window stays.
   */
  public static Map<String, String> raisedTo(int at) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String bucket : BUCKETS) {
      settings.put("limits." + bucket + ".rate", Integer.toString(at));
      settings.put("limits." + bucket + ".burst", Integer.toString(at));
    }
    settings.put("limits.sockets-per-user", Integer.toString(at));
    return settings;
  }

  /** {@link #raisedTo} as environment variables ({@code SEQSYNC_LIMITS_SEND_DEVICE_RATE}, ...). */
  public static Map<String, String> raisedToAsEnvironment(int at) {
    Map<String, String> env = new LinkedHashMap<>();
    raisedTo(at).forEach((name, value) ->
        env.put("SEQSYNC_" + name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), value));
    return env;
  }

  /** A bucket: refilled at {@code perSecond} (a fraction: slower than one a second), {@code burst} at once. */
  public record Rate(String name, double perSecond, int burst) {
    public Rate {
      require(perSecond > 0 && perSecond <= 1_000_000, "limits." + name + ".rate must be above 0, at most 1000000");
      require(burst > 0, "limits." + name + ".burst must be positive");
    }
  }
}
