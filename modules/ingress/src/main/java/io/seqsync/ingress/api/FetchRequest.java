package io.seqsync.ingress.api;

import io.seqsync.ingress.http.ApiException;
import java.util.List;
import java.util.Map;

/**
 * The query of a fetch, validated. One of four modes:
 * <ul>
 *   <li>{@code after=A} (optionally {@code until=B}): seq in (A, B], ascending (R8, R9);
 *   <li>none of after/before/last: the same, from this device's server cursor (R11);
 *   <li>{@code before=S}: the {@code limit} messages just below S, ascending (R16);
 *   <li>{@code last=N}: the latest N, ascending (R16).
 * </ul>
 * {@code limit} is 1-50 (default 50), {@code last} 1-50; {@code last} excludes every other
 * parameter, {@code before} excludes after and until; until may not be below after.
 */
public record FetchRequest(Mode mode, long after, Long until, long before, int count) {
  static final int MAX_LIMIT = 50;

  enum Mode { FROM_CURSOR, AFTER, BEFORE, LAST }

  public static FetchRequest parse(Map<String, List<String>> query) {
    Long after = number(query, "after", 0);
    Long until = number(query, "until", 0);
    Long before = number(query, "before", 1);
    Long last = number(query, "last", 1);
    Long limit = number(query, "limit", 1);
    if (limit != null && limit > MAX_LIMIT) {
      throw invalid("limit must be 1-" + MAX_LIMIT);
    }
    int count = limit == null ? MAX_LIMIT : limit.intValue();
    if (last != null) {
      if (after != null || until != null || before != null || limit != null) {
        throw invalid("last cannot be combined with after, until, before or limit");
      }
      if (last > MAX_LIMIT) {
        throw invalid("last must be 1-" + MAX_LIMIT);
      }
      return new FetchRequest(Mode.LAST, 0, null, 0, last.intValue());
    }
    if (before != null) {
      if (after != null || until != null) {
        throw invalid("before cannot be combined with after or until");
      }
      return new FetchRequest(Mode.BEFORE, 0, null, before, count);
    }
    if (after != null && until != null && until < after) {
      throw invalid("until must not be below after");
    }
    return new FetchRequest(after == null ? Mode.FROM_CURSOR : Mode.AFTER, after == null ? 0 : after, until, 0, count);
  }

  /** A decimal integer at least {@code min}, or null when the parameter is absent. */
  public static Long number(Map<String, List<String>> query, String name, long min) {
    List<String> values = query.get(name);
    if (values == null || values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw invalid(name + " is given more than once");
    }
    String text = values.get(0);
    if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw invalid(name + " must be an integer of at least " + min + ", got '" + AccessControl.abbreviate(text) + "'");
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException tooLarge) {
      throw invalid(name + " is out of range");
    }
    if (value < min) {
      throw invalid(name + " must be at least " + min);
    }
    return value;
  }

  public static ApiException invalid(String message) {
    return ApiException.badRequest("invalid_parameter", message);
  }
}
