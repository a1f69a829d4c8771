package io.seqsync.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What the adopting team's own backend plugs into: service tokens for the server API (the claim and
 * role an identity provider's token carries to be one; the server's own HS256 service tokens carry
 * {@code service: true}), the synchronous pre-send hook ({@code hooks.pre-send.*}, none unless its
 * URL is set) and the webhooks ({@code webhooks.*}, none unless their URL is set).
 */
public record Integrations(String serviceClaim, String serviceRole, Optional<PreSendHook> preSend,
    Optional<Webhooks> webhooks) {
  /** Every event type a webhook can receive, as its payload's {@code type} names it. */
  public static final Set<String> EVENT_TYPES =
      Set.of("message.sent", "message.edited", "message.recalled", "read", "membership.changed");

  public Integrations {
    SeqsyncConfig.require(!serviceClaim.isBlank() && !serviceRole.isBlank(),
        "auth.service-claim and auth.service-role must not be blank");
  }

  /**
   * A moderation endpoint asked before a user's send is accepted: it answers within {@code budget},
   * else the send goes through ({@code failOpen}) or is refused with 503.
   */
  public record PreSendHook(URI url, Duration budget, boolean failOpen) {
    public PreSendHook {
      SeqsyncConfig.require(budget.toMillis() >= 1 && budget.compareTo(Duration.ofSeconds(10)) <= 0,
          "hooks.pre-send.budget must be 1ms..10s");
    }
  }

  /**
   * An endpoint that receives the events of {@code events} (Standard Webhooks, signed with
   * {@code secret}: {@code whsec_} and base64); a delivery is tried {@code maxAttempts} times,
   * {@code timeout} each, waiting from {@code backoff} doubling up to a minute between tries, then
   * dead-lettered.
   */
  public record Webhooks(URI url, String secret, Set<String> events, int maxAttempts, Duration timeout,
      Duration backoff) {
    public Webhooks {
      SeqsyncConfig.require(EVENT_TYPES.containsAll(events) && !events.isEmpty(),
          "webhooks.events must list some of " + EVENT_TYPES + ", got " + events);
      SeqsyncConfig.require(maxAttempts >= 1, "webhooks.max-attempts must be positive");
      SeqsyncConfig.require(timeout.toMillis() >= 1, "webhooks.timeout must be positive");
      SeqsyncConfig.require(!backoff.isNegative(), "webhooks.backoff must not be negative");
      SeqsyncConfig.require(secretBytes(secret).length >= 24,
          "webhooks.secret must be whsec_ followed by the base64 of at least 24 random bytes");
      events = Set.copyOf(events);
    }

    /** The key the secret names (the base64 after {@code whsec_}). */
    public byte[] key() {
      return secretBytes(secret);
    }

    private static byte[] secretBytes(String secret) {
      if (secret == null || !secret.startsWith("whsec_")) {
        return new byte[0];
      }
      try {
        return Base64.getDecoder().decode(secret.substring("whsec_".length()));
      } catch (IllegalArgumentException e) {
        return new byte[0];
      }
    }
  }

  /** From the settings {@code setting} reads (empty: not set). */
  static Integrations load(Function<String, Optional<String>> setting) {
    Optional<PreSendHook> preSend = setting.apply("hooks.pre-send.url").map(url -> new PreSendHook(
        uri("hooks.pre-send.url", url),
        duration(setting, "hooks.pre-send.budget", Duration.ofMillis(500)),
        failOpen(setting.apply("hooks.pre-send.on-failure").orElse("open"))));
    Optional<Webhooks> webhooks = setting.apply("webhooks.url").map(url -> new Webhooks(
        uri("webhooks.url", url),
        setting.apply("webhooks.secret").orElseThrow(() -> new ConfigException("webhooks.secret is required with webhooks.url")),
        events(setting.apply("webhooks.events").orElse(String.join(",", EVENT_TYPES))),
        integer(setting, "webhooks.max-attempts", 8),
        duration(setting, "webhooks.timeout", Duration.ofSeconds(5)),
        duration(setting, "webhooks.backoff", Duration.ofSeconds(1))));
    return new Integrations(setting.apply("auth.service-claim").orElse("service"),
        setting.apply("auth.service-role").orElse("seqsync-service"), preSend, webhooks);
  }

  private static boolean failOpen(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "open" -> true;
      case "closed" -> false;
      default -> throw new ConfigException("hooks.pre-send.on-failure must be open or closed, got '" + value + "'");
    };
  }

  private static Set<String> events(String list) {
    Set<String> events = new LinkedHashSet<>();
    Arrays.stream(list.split(",")).map(String::strip).filter(name -> !name.isEmpty()).forEach(events::add);
    return events;
  }

  private static URI uri(String name, String value) {
    try {
      URI uri = new URI(value);
      SeqsyncConfig.require(uri.isAbsolute() && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())),
          name + " must be an http or https URL, got '" + value + "'");
      return uri;
    } catch (URISyntaxException e) {
      throw new ConfigException(name + " must be a URL, got '" + value + "'");
    }
  }

  private static Duration duration(Function<String, Optional<String>> setting, String name, Duration fallback) {
    return parsed(setting, name, fallback, Durations::parse, "a duration like 500ms, 30s or PT1S");
  }

  private static int integer(Function<String, Optional<String>> setting, String name, int fallback) {
    return parsed(setting, name, fallback, Integer::parseInt, "an integer");
  }

  private static <T> T parsed(Function<String, Optional<String>> setting, String name, T fallback,
      Function<String, T> parse, String what) {
    Optional<String> value = setting.apply(name);
    try {
      return value.map(parse).orElse(fallback);
    } catch (IllegalArgumentException e) { // NumberFormatException included
      throw new ConfigException(name + " must be " + what + ", got '" + value.get() + "'");
    }
  }
}
