package io.seqsync.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code postgres.shards}: which PostgreSQL primary holds the projection of each partition of the
 * events topic, as ranges of partitions, e.g. {@code 0-5=jdbc:postgresql://h1/db,6-11=jdbc:postgresql://h2/db}.
 * A range may name its primary's streaming replicas after it, {@code |}-separated:
 * {@code 0-5=jdbc:postgresql://h1/db|jdbc:postgresql://h1r/db}. A URL may name several ranges (one
 * shard, several ranges; each naming the same replicas). Empty: one primary for every partition.
 * Immutable.
 */
public record PostgresShards(List<Range> ranges) {
  // A range starts the text or follows a comma: a JDBC URL's own commas (several hosts) stay in it.
  private static final Pattern RANGE = Pattern.compile("(?:^|,)\\s*(\\d+)(?:-(\\d+))?=");

  /**
   * Partitions {@code first..last} (both included) in the primary at {@code jdbcUrl}, whose
   * streaming replicas (same user and password) are {@code replicaUrls}.
   */
  public record Range(int first, int last, String jdbcUrl, List<String> replicaUrls) {
    public Range {
      replicaUrls = List.copyOf(replicaUrls);
      SeqsyncConfig.require(first >= 0 && last >= first, "postgres.shards: a range must be first-last with first <= last");
      requireUrl(jdbcUrl);
      replicaUrls.forEach(PostgresShards::requireUrl);
      SeqsyncConfig.require(!replicaUrls.contains(jdbcUrl) && replicaUrls.stream().distinct().count() == replicaUrls.size(),
          "postgres.shards: the replicas of " + jdbcUrl + " must be distinct and other than it");
    }

    /** A range without replicas. */
    public Range(int first, int last, String jdbcUrl) {
      this(first, last, jdbcUrl, List.of());
    }

    // first-last=primary|replica|...: the primary first, then its replicas.
    static Range parse(int first, int last, String urls) {
      String[] parts = urls.split("\\|", -1);
      for (String part : parts) {
        SeqsyncConfig.require(!part.isBlank(), "postgres.shards: " + first + "-" + last + "=" + urls
            + " has an empty URL; a shard is primaryJdbcUrl or primaryJdbcUrl|replicaJdbcUrl|...");
      }
      List<String> replicas = new ArrayList<>();
      for (int i = 1; i < parts.length; i++) {
        replicas.add(parts[i].strip());
      }
      return new Range(first, last, parts[0].strip(), replicas);
    }
  }

  public static final PostgresShards NONE = new PostgresShards(List.of());

  public PostgresShards {
    ranges = List.copyOf(ranges);
    Map<String, List<String>> replicas = new HashMap<>();
    for (Range range : ranges) {
      List<String> named = replicas.putIfAbsent(range.jdbcUrl(), range.replicaUrls());
      SeqsyncConfig.require(named == null || named.equals(range.replicaUrls()), "postgres.shards: the ranges of "
          + range.jdbcUrl() + " name different replicas (" + named + " and " + range.replicaUrls() + ")");
    }
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
        "postgres.shards must be first-last=jdbcUrl,... (e.g. 0-5=jdbc:postgresql://h1/db,6-11=jdbc:postgresql://h2/db;"
            + " a shard's replicas follow its primary: 0-5=jdbc:postgresql://h1/db|jdbc:postgresql://h1r/db)");
    List<Range> ranges = new ArrayList<>();
    for (int i = 0; i < bounds.size(); i++) {
      int urlEnd = i + 1 < starts.size() ? starts.get(i + 1) : text.length();
      ranges.add(Range.parse(bounds.get(i)[0], bounds.get(i)[1], text.substring(ends.get(i), urlEnd).strip()));
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

  /** The streaming replicas of the shard whose primary is {@code jdbcUrl} (none when it names no shard). */
  public List<String> replicasOf(String jdbcUrl) {
    return ranges.stream().filter(range -> range.jdbcUrl().equals(jdbcUrl)).findFirst().map(Range::replicaUrls)
        .orElse(List.of());
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

  private static void requireUrl(String jdbcUrl) {
    SeqsyncConfig.require(jdbcUrl.startsWith("jdbc:postgresql:"), "postgres.shards: " + jdbcUrl
        + " is not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db)");
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
