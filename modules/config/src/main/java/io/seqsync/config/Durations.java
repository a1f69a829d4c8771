package io.seqsync.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Durations as people write them in settings and on command lines: 500ms, 30s, 15m, 12h, 30d or ISO-8601 (PT12H). */
public final class Durations {
  private Durations() {}

  /** The duration {@code text} names; throws {@link IllegalArgumentException} when it names none. */
  public static Duration parse(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (value.startsWith("p")) {
        return Duration.parse(value.toUpperCase(Locale.ROOT));
      }
      if (value.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
      }
      long amount = Long.parseLong(value.substring(0, value.length() - 1));
      return switch (value.charAt(value.length() - 1)) {
        case 's' -> Duration.ofSeconds(amount);
        case 'm' -> Duration.ofMinutes(amount);
        case 'h' -> Duration.ofHours(amount);
        case 'd' -> Duration.ofDays(amount);
        default -> throw new NumberFormatException();
      };
    } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException | ArithmeticException e) {
      throw new IllegalArgumentException("not a duration like 500ms, 30s, 15m, 12h, 30d or PT12H: '" + text + "'");
    }
  }
}
