package io.seqsync.bench.http;

import java.util.Arrays;

/**
 * Exact latency percentiles: every sample is kept (a phase has at most a few hundred thousand)
 * and sorted once. Not thread-safe: one per thread, or filled after the fact, then merged.
 */
public final class Samples {
  private long[] values = new long[1024];
  private int size;
  private boolean sorted;

  public void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
    sorted = false;
  }

  void addAll(Samples other) {
    for (int i = 0; i < other.size; i++) {
      add(other.values[i]);
    }
  }

  public int size() {
    return size;
  }

  /** The nearest-rank percentile ({@code p} in 0..100); 0 when empty. */
  public long percentile(double p) {
    if (size == 0) {
      return 0;
    }
    sort();
    int rank = (int) Math.ceil(p / 100.0 * size);
    return values[Math.min(size - 1, Math.max(0, rank - 1))];
  }

  public long max() {
    return size == 0 ? 0 : percentile(100);
  }

  public double mean() {
    if (size == 0) {
      return 0;
    }
    double sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return sum / size;
  }

  private void sort() {
    if (!sorted) {
      Arrays.sort(values, 0, size);
      sorted = true;
    }
  }
}
