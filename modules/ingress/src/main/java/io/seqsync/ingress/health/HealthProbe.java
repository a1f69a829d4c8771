package io.seqsync.ingress.health;

import java.util.function.Supplier;

/**
 * A check of one dependency for {@code /health/live} and {@code /health/ready}. The app builds them
 * from the components it owns (the ingress does not know the sequencer or the projectors).
 * {@link #check()} may block; the caller bounds its wait, runs at most one check of a probe at a
 * time and reuses a result for a second.
 */
public interface HealthProbe {
  /** The dependency's name in the answers ({@code redis}, {@code eventProjector}). */
  String name();

  /**
   * Whether this instance cannot take traffic while the dependency is down: {@code /health/ready}
   * then answers 503. A dependency that is not required, down, only degrades it (Redis: slower, no push).
   */
  boolean required();

  /** The state now. An exception counts as down. */
  DependencyState check();

  /** A probe whose dependency this instance cannot do without. */
  static HealthProbe required(String name, Supplier<DependencyState> check) {
    return new Named(name, true, check);
  }

  /** A probe whose dependency, down, only degrades this instance. */
  static HealthProbe optional(String name, Supplier<DependencyState> check) {
    return new Named(name, false, check);
  }

  /** A probe from a name and a function. */
  record Named(String name, boolean required, Supplier<DependencyState> checker) implements HealthProbe {
    @Override
    public DependencyState check() {
      return checker.get();
    }
  }
}
