package io.seqsync.store;

import io.seqsync.store.ConversationQueries.SyncRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One handshake page from every shard's page of the same request. Every shard pages its
 * memberships in convId order from the same cursor, so the merged page may end no later than the
 * earliest shard's end: rows past it are left for the next page (where that shard reaches them
 * again), and a merged page over the page size ends at its page-size-th convId. Rows are then
 * ordered as one shard orders them: most recently active first. Stateless.
 */
final class SyncPageMerge {
  /** A shard's page and the last activity of each of its rows. */
  record ShardPage(SyncQueries.Page page, Map<String, Long> activity) {}

  private SyncPageMerge() {}

  static SyncQueries.Page merge(List<ShardPage> pages, int pageSize) {
    Optional<String> end = pages.stream().map(shard -> shard.page().next()).flatMap(Optional::stream)
        .min(Comparator.naturalOrder());
    List<SyncRow> rows = new ArrayList<>();
    for (ShardPage shard : pages) {
      for (SyncRow row : shard.page().rows()) {
        if (end.isEmpty() || row.convId().compareTo(end.get()) <= 0) {
          rows.add(row);
        }
      }
    }
    if (rows.size() > pageSize) {
      rows.sort(Comparator.comparing(SyncRow::convId));
      rows = new ArrayList<>(rows.subList(0, pageSize));
      end = Optional.of(rows.get(pageSize - 1).convId());
    }
    Map<String, Long> activity = new java.util.HashMap<>();
    pages.forEach(shard -> activity.putAll(shard.activity()));
    rows.sort(Comparator.comparingLong((SyncRow row) -> activity.get(row.convId())).reversed()
        .thenComparing(SyncRow::convId));
    return new SyncQueries.Page(rows, end);
  }
}
