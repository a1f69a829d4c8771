package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TemporaryDirectoryTest {

  @Test
  void closeDeletesTheDirectoryWithEverythingBelowIt() throws IOException {
    Path path;
    try (TemporaryDirectory dir = TemporaryDirectory.create("temporary-directory-test-")) {
      path = dir.path();
      assertThat(path.getFileName().toString()).startsWith("temporary-directory-test-");
      Files.createDirectories(path.resolve("data/base"));
      Files.writeString(path.resolve("data/base/file"), "x");
      Files.writeString(path.resolve("top"), "y");
    }
    assertThat(path).doesNotExist();
  }
}
