package io.seqsync.ingress.health;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One dependency's state, as {@code /health/live} and {@code /health/ready} name it, with what was
 * seen ({@code detail}: JSON-ready values, in the order given).
 */
public record DependencyState(State state, Map<String, Object> detail) {

  /** Worst last. */
  public enum State {
    /** Works. */
    UP,
    /** Works, worse: slower, rebalancing, behind, or without some function (detail says which). */
    DEGRADED,
    /** Does not answer now; may come back by itself. */
    DOWN,
    /** Down for good in this process: only a restart helps ({@code /health/live} answers 503). */
    FAILED;

    /** Its name in the answers: {@code up}, {@code degraded}, {@code down}, {@code failed}. */
    public String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public DependencyState {
    detail = Collections.unmodifiableMap(new LinkedHashMap<>(detail));
  }

  public static DependencyState up(Map<String, Object> detail) {
    return new DependencyState(State.UP, detail);
  }

  /** Degraded, {@code reason} first in the detail. */
  public static DependencyState degraded(String reason, Map<String, Object> detail) {
    return new DependencyState(State.DEGRADED, withFirst("reason", reason, detail));
  }

  /** Down, {@code error} first in the detail. */
  public static DependencyState down(String error, Map<String, Object> detail) {
    return new DependencyState(State.DOWN, withFirst("error", error, detail));
  }

  /** Failed for good, {@code error} first in the detail. */
  public static DependencyState failed(String error, Map<String, Object> detail) {
    return new DependencyState(State.FAILED, withFirst("error", error, detail));
  }

  /** The JSON object of the answers: {@code state}, then the detail. */
  Map<String, Object> view() {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("state", state.json());
    view.putAll(detail);
    return view;
  }

  private static Map<String, Object> withFirst(String key, String value, Map<String, Object> detail) {
    Map<String, Object> ordered = new LinkedHashMap<>();
    ordered.put(key, value);
    ordered.putAll(detail);
    return ordered;
  }
}
