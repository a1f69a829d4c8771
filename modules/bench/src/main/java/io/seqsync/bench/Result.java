package io.seqsync.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one result format of every benchmark: what ran, with which options, on how loaded a machine,
 * and its rows (one per phase, rate or fault: name → figure). Written as JSON, one file per run,
 * and to stdout.
 */
public record Result(String benchmark, String started, double seconds, int cores, String loadBefore, String loadAfter,
    Map<String, Object> options, List<Object> rows) {

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  /** A row from {@code name, value, name, value, ...}, in that order. */
  public static Map<String, Object> row(Object... namesAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
      row.put(String.valueOf(namesAndValues[i]), namesAndValues[i + 1]);
    }
    return row;
  }

  /** Prints the result and writes it to {@code dir}/{@code benchmark-time.json}; returns that file. */
  public Path write(Path dir) {
    try {
      String json = JSON.writeValueAsString(this);
      System.out.println(json);
      Files.createDirectories(dir);
      Path file = dir.resolve(benchmark + "-" + FILE_TIME.format(Instant.parse(started)) + ".json");
      Files.writeString(file, json + "\n");
      System.err.println("result written to " + file);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
