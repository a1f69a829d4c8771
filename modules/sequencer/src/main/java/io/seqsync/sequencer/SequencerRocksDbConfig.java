package io.seqsync.sequencer;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Options;

/**
 * RocksDB options of the sequencer's stores, over Streams' defaults (docs/design.md, "Sequencer state"):
 * <ul>
 *   <li>Memtables of 1 MiB, not 16. Every read and write searches the memtable, a skip list; a
 *       16 MiB one holds a few hundred thousand entries (the dedup window's keys, the state
 *       store's overwritten versions until a flush), and each search missed the CPU caches at
 *       most of its steps. A small one flushes often, into small files.
 *   <li>Bloom filters on every level. Streams leaves them off the last one (optimize filters
 *       for hits), which suits lookups that find their key; a dedup lookup almost never does, and
 *       without a filter each one read a data block of every file in that level.
 * </ul>
 */
public final class SequencerRocksDbConfig implements RocksDBConfigSetter {
  static final long WRITE_BUFFER_BYTES = 1024 * 1024;

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    options.setWriteBufferSize(WRITE_BUFFER_BYTES);
    options.setOptimizeFiltersForHits(false);
  }

  @Override
  public void close(String storeName, Options options) {
    // Nothing was created here that needs closing.
  }
}
