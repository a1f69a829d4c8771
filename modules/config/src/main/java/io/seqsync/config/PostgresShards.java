package io.seqsync.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code postgres.shards}: which PostgreSQL primary holds the projection of each partition of the
 * events topic, as ranges of partitions, e.g. {@code 0-5=jdbc:postgresql://h1/db,6-11=jdbc:postgresql://h2/db}.
 * A URL may name several ranges (one shard, several ranges). Empty: one primary for every partition.
 * Immutable.
 */
public record PostgresShards(List<Range> ranges) {
  // A range starts the text or follows a comma: a JDBC URL's own commas (several hosts) stay in it.
  private static final Pattern RANGE = Pattern.compile("(?:^|,)\\s*(\\d+)(?:-(\\d+))?=");

  /** Partitions {@code first..last} (both included) in the primary at {@code jdbcUrl}. */
  public record Range(int first, int last, String jdbcUrl) {
    public Range {
      SeqsyncConfig.require(first >= 0 && last >= first, "postgres.shards: a range must be first-last with first <= last");
      SeqsyncConfig.require(jdbcUrl.startsWith("jdbc:postgresql:"), "postgres.shards: " + jdbcUrl
          + " is not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db)");
    }
  }

  public static final PostgresShards NONE = new PostgresShards(List.of());

  public PostgresShards {
    ranges = List.copyOf(ranges);
  }

  /** Parses the setting (absent or blank: {@link #NONE}). */
  public static PostgresShards parse(Optional<String> setting) {
    if (setting.isEmpty() || setting.get().isBlank()) {
      return NONE;
    }
    String text = setting.get().strip();
    Matcher matcher = RANGE.matcher(text);
    List<int[]> bounds = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    while (matcher.find()) {
      int first = Integer.parseInt(matcher.group(1));
      bounds.add(new int[] {first, matcher.group(2) == null ? first : Integer.parseInt(matcher.group(2))});
      starts.add(matcher.start());
      ends.add(matcher.end());
    }
    SeqsyncConfig.require(!starts.isEmpty() && starts.get(0) == 0,
        "postgres.shards must be first-last=jdbcUrl,... (e.g. 0-5=jdbc:postgresql://h1/db,6-11=jdbc:postgresql://h2/db)");
    List<Range> ranges = new ArrayList<>();
    for (int i = 0; i < bounds.size(); i++) {
      int urlEnd = i + 1 < starts.size() ? starts.get(i + 1) : text.length();
      ranges.add(new Range(bounds.get(i)[0], bounds.get(i)[1], text.substring(ends.get(i), urlEnd).strip()));
    }
    ranges.sort(Comparator.comparingInt(Range::first));
    return new PostgresShards(ranges);
  }

  public boolean configured() {
    return !ranges.isEmpty();
  }

  /** The URL of the shard holding partition 0: the home shard of what is not per conversation. */
  public Optional<String> home() {
    return ranges.isEmpty() ? Optional.empty() : Optional.of(ranges.get(0).jdbcUrl());
  }

  /** The primary of each partition {@code 0..partitions-1}; {@code single} for all when none is configured. */
  public List<String> urlOfPartition(int partitions, String single) {
    List<String> urls = new ArrayList<>(partitions);
    for (int partition = 0; partition < partitions; partition++) {
      urls.add(single);
    }
    ranges.forEach(range -> {
      for (int partition = range.first(); partition <= range.last() && partition < partitions; partition++) {
        urls.set(partition, range.jdbcUrl());
      }
    });
    return urls;
  }

  /** Checks that the ranges cover partitions {@code 0..partitions-1}, each once. */
  public void requireCovers(int partitions) {
    int next = 0;
    for (Range range : ranges) {
      SeqsyncConfig.require(range.first() == next, "postgres.shards must cover every partition once, in order from 0:"
          + " expected a range from " + next + ", found " + range.first() + "-" + range.last());
      next = range.last() + 1;
    }
    SeqsyncConfig.require(ranges.isEmpty() || next == partitions, "postgres.shards covers partitions 0-" + (next - 1)
        + " but the events topic has " + partitions);
  }
}
