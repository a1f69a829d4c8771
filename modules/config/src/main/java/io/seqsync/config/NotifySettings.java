package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;

/**
 * Push notifications (docs/design.md, "Push notifications"): whether they run, one per
 * conversation and device per {@code coalesceWindow} (the latest message of a burst, sent at the
 * window's end; zero: each message at once), with the message's text ({@code preview}) or none;
 * {@code maxAttempts} tries per notification with back-off from {@code firstBackoff} doubling up
 * to {@code maxBackoff}, each given {@code requestTimeout}, then the dead letters; {@code inFlight}
 * requests at once per instance; Web Push's VAPID {@code vapidSubject} (a mailto: or https: URL).
 */
public record NotifySettings(boolean enabled, Duration coalesceWindow, boolean preview, int maxAttempts,
    Duration firstBackoff, Duration maxBackoff, Duration requestTimeout, int inFlight, String vapidSubject,
    int pushersPerUser) {
  public NotifySettings {
    require(!coalesceWindow.isNegative() && coalesceWindow.compareTo(Duration.ofMinutes(5)) <= 0,
        "notify.coalesce-window must be 0s-5m");
    require(maxAttempts >= 1 && maxAttempts <= 100, "notify.max-attempts must be 1-100");
    require(!firstBackoff.isNegative() && maxBackoff.compareTo(firstBackoff) >= 0,
        "notify.first-backoff must not be negative nor above notify.max-backoff");
    require(requestTimeout.toMillis() > 0, "notify.request-timeout must be positive");
    require(inFlight >= 1 && inFlight <= 10_000, "notify.in-flight must be 1-10000");
    require(vapidSubject.startsWith("mailto:") || vapidSubject.startsWith("https:"),
        "notify.vapid-subject must be a mailto: or https: URL");
    require(pushersPerUser >= 1, "notify.pushers-per-user must be positive");
  }
}
