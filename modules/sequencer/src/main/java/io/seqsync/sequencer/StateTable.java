package io.seqsync.sequencer;

import org.apache.kafka.common.serialization.Serde;
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
}
