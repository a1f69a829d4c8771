package io.seqsync.sequencer;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The sequencer's state stores: its key-value state in one store (each kind under its own key
 * prefix, see {@link StateTable}) and the dedup window store. Both are persistent, changelogged and
 * written in the same exactly-once transaction as the events they cause. One store for all the
 * key-value kinds gives a task one RocksDB instance and one changelog partition where a store per
 * kind gave it seven, each opened at every start and rebalance and each with its own memtables and
 * block cache (measured: docs/design.md, "Sequencer state"). Neither is cached: Streams flushes a task's cache at
 * each commit and then waits for the producer, task after task, so a cached store made every commit
 * a chain of produce requests (and of partitions added to the transaction) one after another;
 * uncached, each write goes out as it happens and the first task's flush sends the rest. That costs
 * a changelog record per write where the cache kept one per key and commit (docs/design.md,
 * "Sequencer state").
 */
public final class SequencerStores {
  /** The key-value state of every kind below. */
  public static final String STATE = "sequencer-state";
  /**
   * convId + clientMsgId -> the message a send produced (R4), filed under the start of its window
   * bucket (see {@link #dedupBucket}).
   */
  static final String DEDUP = "send-dedup-buckets";

  /** The kinds of key-value state, each with the prefix its keys carry in {@link #STATE}. */
  public enum Kind {
    /** convId -> the last seq given in that conversation. */
    CONV_SEQ('s'),
    /** convId + recalled seq -> the recall notice (msgId, seq). */
    RECALLS('r'),
    /** partition -> a bound at or above every msgId that partition issued ({@link MsgIdClock}). */
    MSG_ID_CLOCK('m'),
    /** userId + deviceId + convId -> the highest seq the device acked (R11). */
    CURSORS('c'),
    /** userId + convId -> the highest seq the user read (R18). */
    READS('p'),
    /** group convId -> its owner, member count and settings. */
    GROUPS('g'),
    /** group convId + userId -> the seq of the notice that added the user. */
    GROUP_MEMBERS('u'),
    /** group convId + userId -> the seq of the notice that made the user an admin (the owner is not listed). */
    GROUP_ADMINS('a'),
    /** direct convId + userId -> the user blocked the conversation's other user (the value is unused: 1). */
    BLOCKS('b'),
    /** convId + seq + userId + emoji -> the notice that added the reaction (message actions). */
    REACTIONS('x');

    final char prefix;

    Kind(char prefix) {
      this.prefix = prefix;
    }
  }

  private SequencerStores() {}

  public static StoreBuilder<KeyValueStore<String, byte[]>> state() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STATE), Serdes.String(), Serdes.ByteArray())
        .withCachingDisabled();
  }

  /** Each conversation's latest seq in {@code store}. */
  public static StateTable<Long> convSeq(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.CONV_SEQ, Serdes.Long());
  }

  static StateTable<ProducedMessage> recalls(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.RECALLS, ProducedMessage.serde());
  }

  static StateTable<ProducedMessage> reactions(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.REACTIONS, ProducedMessage.serde());
  }

  /** Keyed by the partition number as text. */
  static StateTable<Long> msgIdClock(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.MSG_ID_CLOCK, Serdes.Long());
  }

  static StateTable<Long> cursors(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.CURSORS, Serdes.Long());
  }

  static StateTable<Long> reads(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.READS, Serdes.Long());
  }

  static StateTable<GroupState> groups(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.GROUPS, GroupState.serde());
  }

  static StateTable<Long> groupMembers(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.GROUP_MEMBERS, Serdes.Long());
  }

  static StateTable<Long> groupAdmins(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.GROUP_ADMINS, Serdes.Long());
  }

  static StateTable<Long> blocks(KeyValueStore<String, byte[]> store) {
    return new StateTable<>(store, Kind.BLOCKS, Serdes.Long());
  }

  /**
   * A window store whose entries are filed at their bucket's start (window-long buckets), so that a
   * lookup is a point read in at most three buckets rather than a range scan: with bloom filters on
   * every level ({@link SequencerRocksDbConfig}) RocksDB answers a read for an absent key from them,
   * where a scan seeks in every memtable and file. Retention one window
   * past a bucket's start: the bucket before the current one stays readable, older ones fall out
   * whole segments at a time, so the store holds one to two windows of sends. Uncached: every key
   * is written once, so a cache would only delay the segment clean-up.
   */
  static StoreBuilder<WindowStore<String, DedupEntry>> dedup(Duration window) {
    return Stores.windowStoreBuilder(
        Stores.persistentWindowStore(DEDUP, window.plusMillis(1), window, false), Serdes.String(), DedupEntry.serde());
  }

  /** The start of the window-long bucket {@code timestamp} falls in. */
  static long dedupBucket(long timestamp, long windowMs) {
    return timestamp - Math.floorMod(timestamp, windowMs);
  }

  /** A composite store key; NUL cannot occur in conversation, device or client message ids. */
  static String key(Object... parts) {
    StringBuilder key = new StringBuilder();
    for (Object part : parts) {
      if (key.length() > 0) {
        key.append('\u0000');
      }
      key.append(part);
    }
    return key.toString();
  }
}
