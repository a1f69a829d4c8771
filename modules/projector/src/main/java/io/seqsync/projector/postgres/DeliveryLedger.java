package io.seqsync.projector.postgres;

import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.RenderFailed;
import io.seqsync.events.model.Rendered;
import io.seqsync.store.DeliveryCause;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import io.seqsync.store.shard.ShardMap;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Writes clients' delivery reports (R17, R24) into {@code message_renders} and the negative-case
 * library {@code delivery_cases}, in the caller's transaction. Each report is matched with the
 * stored message it names in the hot tier (msgId, convId and seq must all agree): a client only
 * renders what it fetched or was pushed, both after the message was stored, so a report that
 * matches nothing is wrong, forged, or about a message already archived (rendered more than the
 * hot tier's days after its send, which is history browsing, not delivery); it is only counted.
 * Every row has the report's natural key and is inserted with {@code on conflict do nothing}: a
 * report delivered twice changes nothing. Thread-safe: holds only its target.
 */
public final class DeliveryLedger {
  /**
   * What one batch of reports wrote: rows new to the tables (a report seen before adds none), and
   * the reports that name no stored message.
   */
  public record Recorded(int renders, int cases, int unmatched) {}

  private record StoredMessage(String convId, long seq, long senderId, long createTime) {}

  private final long targetMillis;
  private final Optional<ShardMap> shards;

  /** {@code renderTarget}: a render later than this after the send is a negative case. */
  public DeliveryLedger(Duration renderTarget) {
    this.targetMillis = renderTarget.toMillis();
    this.shards = Optional.empty();
  }

  /**
   * As above, matching each report with its message in the shard of the report's conversation; the
   * ledger's own tables stay in the caller's database (the home shard), where the figures are read.
   */
  public DeliveryLedger(Duration renderTarget, ShardMap shards) {
    this.targetMillis = renderTarget.toMillis();
    this.shards = shards.size() == 1 ? Optional.empty() : Optional.of(shards);
  }

  /** The cause of a render that missed the target, or null for one on time. Times in epoch ms. */
  public DeliveryCause lateCause(long sendTime, long createTime, long renderTime) {
    if (renderTime < sendTime) {
      return DeliveryCause.CLOCK_SKEW;
    }
    if (renderTime - sendTime <= targetMillis) {
      return null;
    }
    return createTime - sendTime >= renderTime - createTime ? DeliveryCause.SLOW_SEND : DeliveryCause.SLOW_DELIVERY;
  }

  /** Writes {@code reports} with {@code handle}, in its transaction. */
  public Recorded apply(Handle handle, List<DeliveryReport> reports) {
    Map<Long, StoredMessage> stored = storedMessages(handle, reports);
    PreparedBatch renders = handle.prepareBatch("insert into message_renders (msg_id, user_id, device_id, conv_id, seq,"
        + " sender_id, send_time, create_time, render_time) values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing");
    PreparedBatch cases = handle.prepareBatch("insert into delivery_cases (msg_id, user_id, device_id, cause, conv_id,"
        + " seq, create_time, latency_ms, detail, reported_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing");
    int unmatched = 0;
    for (DeliveryReport report : reports) {
      StoredMessage message = stored.get(report.getMsgId());
      if (message == null || !message.convId().equals(report.getConvId()) || message.seq() != report.getSeq()) {
        unmatched++;
        continue;
      }
      if (report.getOutcome() instanceof Rendered rendered) {
        renders.add(report.getMsgId(), report.getUserId(), report.getDeviceId(), report.getConvId(), report.getSeq(),
            message.senderId(), rendered.getSendTime(), message.createTime(), rendered.getRenderTime());
        DeliveryCause cause = lateCause(rendered.getSendTime(), message.createTime(), rendered.getRenderTime());
        if (cause != null) {
          cases.add(report.getMsgId(), report.getUserId(), report.getDeviceId(), cause.column(), report.getConvId(),
              report.getSeq(), message.createTime(), rendered.getRenderTime() - rendered.getSendTime(), null,
              report.getReceivedAt());
        }
      } else if (report.getOutcome() instanceof RenderFailed failed) {
        cases.add(report.getMsgId(), report.getUserId(), report.getDeviceId(), DeliveryCause.RENDER_FAILED.column(),
            report.getConvId(), report.getSeq(), message.createTime(), null, failed.getReason(), report.getReceivedAt());
      }
    }
    return new Recorded(inserted(renders), inserted(cases), unmatched);
  }

  private static int inserted(PreparedBatch batch) {
    return batch.size() == 0 ? 0 : IntStream.of(batch.execute()).sum();
  }

  private Map<Long, StoredMessage> storedMessages(Handle handle, List<DeliveryReport> reports) {
    if (shards.isEmpty()) {
      return storedMessages(handle, reports.stream().map(DeliveryReport::getMsgId));
    }
    Map<Long, StoredMessage> stored = new HashMap<>();
    Map<Jdbi, List<DeliveryReport>> byShard = shards.get().byShard(reports, report -> report.getConvId());
    shards.get().fanOut(byShard.keySet(), jdbi -> jdbi.withHandle(shard ->
        storedMessages(shard, byShard.get(jdbi).stream().map(DeliveryReport::getMsgId)))).forEach(stored::putAll);
    return stored;
  }

  private static Map<Long, StoredMessage> storedMessages(Handle handle, java.util.stream.Stream<Long> ids) {
    Long[] msgIds = ids.distinct().toArray(Long[]::new);
    Map<Long, StoredMessage> stored = new HashMap<>();
    handle.createQuery("select msg_id, conv_id, seq, sender_id, create_time from messages where msg_id = any(?)")
        .bindArray(0, Long.class, (Object[]) msgIds)
        .map((row, ctx) -> Map.entry(row.getLong("msg_id"), new StoredMessage(row.getString("conv_id"),
            row.getLong("seq"), row.getLong("sender_id"), row.getLong("create_time"))))
        .forEach(entry -> stored.put(entry.getKey(), entry.getValue()));
    return stored;
  }
}
