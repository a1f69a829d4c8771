package io.seqsync.sequencer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One kind of the sequencer's key-value state ({@link SequencerStores.Kind}), kept under its own
 * key prefix in the shared {@link SequencerStores#STATE} store, with one serde for its values.
 * Not thread-safe: one per task, like the store under it.
 */
public final class StateTable<V> {
  private final KeyValueStore<String, byte[]> store;
  private final char prefix;
  private final Serde<V> serde;

  StateTable(KeyValueStore<String, byte[]> store, SequencerStores.Kind kind, Serde<V> serde) {
    this.store = store;
    this.prefix = kind.prefix;
    this.serde = serde;
  }

  public V get(String key) {
    return serde.deserializer().deserialize(null, store.get(prefix + key));
  }

  public void put(String key, V value) {
    store.put(prefix + key, serde.serializer().serialize(null, value));
  }

  public void delete(String key) {
    store.delete(prefix + key);
  }

  /** Every entry whose key starts with {@code keyPrefix}, keys without the table's prefix, in key order. */
  public List<Map.Entry<String, V>> withKeyPrefix(String keyPrefix) {
    List<Map.Entry<String, V>> entries = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> found = store.prefixScan(prefix + keyPrefix, new StringSerializer())) {
      while (found.hasNext()) {
        KeyValue<String, byte[]> entry = found.next();
        entries.add(Map.entry(entry.key.substring(1), serde.deserializer().deserialize(null, entry.value)));
      }
    }
    return entries;
  }
}
