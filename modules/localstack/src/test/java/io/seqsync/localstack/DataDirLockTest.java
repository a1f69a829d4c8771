package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirLockTest {
  @Test
  void oneHolderAtATimeAndFreeAgainOnceClosed(@TempDir Path dir) {
    Path dataDir = dir.resolve("data");
    try (DataDirLock held = DataDirLock.acquire(dataDir)) {
      assertThat(dataDir.resolve(DataDirLock.FILE_NAME)).exists();
      assertThatThrownBy(() -> DataDirLock.acquire(dataDir)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("in use by another seqsync");
    }
    DataDirLock.acquire(dataDir).close();
  }
}
