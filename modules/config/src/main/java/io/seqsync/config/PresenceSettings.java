package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;

/**
 * Typing and presence (docs/design.md, "Typing and presence"): a push socket is live for
 * {@code socketTtl} after its instance's last beat for it (beats every third of it), so a killed
 * instance's sockets age out within it; a user's presence changes go out at most once per
 * {@code throttle}; a device's typing in a conversation is relayed at most once per
 * {@code typingInterval}, and shown by the others for {@code typingTimeout} unless renewed.
 */
public record PresenceSettings(Duration socketTtl, Duration throttle, Duration typingInterval, Duration typingTimeout) {
  public PresenceSettings {
    require(socketTtl.toSeconds() >= 3, "presence.socket-ttl must be at least 3s");
    require(!throttle.isNegative() && throttle.compareTo(Duration.ofMinutes(1)) <= 0,
        "presence.throttle must be 0s-1m");
    require(!typingInterval.isNegative(), "presence.typing-interval must not be negative");
    require(typingTimeout.compareTo(typingInterval) > 0, "presence.typing-timeout must be above presence.typing-interval");
  }
}
