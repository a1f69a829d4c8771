package io.seqsync.sequencer;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The sequencer's state stores. All are persistent, changelogged and written in the same
 * exactly-once transaction as the events they cause. Caching collapses repeated writes to one key
 * (a busy conversation's seq) into one changelog record per commit.
 */
public final class SequencerStores {
  /** convId -> the last seq given in that conversation. */
  public static final String CONV_SEQ = "conv-seq";
  /** convId + clientMsgId -> the message a send produced, kept for the dedup window (R4). */
  static final String DEDUP = "send-dedup";
  /** convId + recalled seq -> the recall notice (msgId, seq). */
  static final String RECALLS = "recalls";
  /** partition -> a bound at or above every msgId that partition issued ({@link MsgIdClock}). */
  static final String MSG_ID_CLOCK = "msg-id-clock";
  /** userId + deviceId + convId -> the highest seq the device acked (R11). */
  static final String CURSORS = "device-cursors";
  /** userId + convId -> the highest seq the user read (R18). */
  static final String READS = "read-positions";
  /** group convId -> its owner and member count. */
  static final String GROUPS = "groups";
  /** group convId + userId -> the seq of the notice that added the user. */
  static final String GROUP_MEMBERS = "group-members";

  private SequencerStores() {}

  public static StoreBuilder<KeyValueStore<String, Long>> convSeq() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CONV_SEQ), Serdes.String(), Serdes.Long())
        .withCachingEnabled();
  }

  /**
   * A window store: entries fall out whole segments at a time once older than the window, so the
   * dedup state never grows beyond one window of sends. Uncached: every key is written once, so a
   * cache would only delay the segment clean-up.
   */
  static StoreBuilder<WindowStore<String, DedupEntry>> dedup(Duration window) {
    return Stores.windowStoreBuilder(
        Stores.persistentWindowStore(DEDUP, window, window, false), Serdes.String(), DedupEntry.serde());
  }

  static StoreBuilder<KeyValueStore<String, DedupEntry>> recalls() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RECALLS), Serdes.String(), DedupEntry.serde())
        .withCachingEnabled();
  }

  static StoreBuilder<KeyValueStore<Integer, Long>> msgIdClock() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(MSG_ID_CLOCK), Serdes.Integer(), Serdes.Long())
        .withCachingEnabled();
  }

  static StoreBuilder<KeyValueStore<String, Long>> cursors() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CURSORS), Serdes.String(), Serdes.Long())
        .withCachingEnabled();
  }

  static StoreBuilder<KeyValueStore<String, Long>> reads() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(READS), Serdes.String(), Serdes.Long())
        .withCachingEnabled();
  }

  static StoreBuilder<KeyValueStore<String, GroupState>> groups() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(GROUPS), Serdes.String(), GroupState.serde())
        .withCachingEnabled();
  }

  static StoreBuilder<KeyValueStore<String, Long>> groupMembers() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(GROUP_MEMBERS), Serdes.String(), Serdes.Long())
        .withCachingEnabled();
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
