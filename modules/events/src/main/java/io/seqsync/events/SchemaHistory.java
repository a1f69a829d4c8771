package io.seqsync.events;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Every released version of the event schemas, read from {@code schemas/released} on the
 * classpath (the build copies the repository's {@code schemas/} there). Decoders register these so
 * that a record written by an older release still decodes. Immutable after construction.
 */
public final class SchemaHistory {
  private static final String ROOT = "schemas/released/";
  private static final SchemaHistory RELEASED = load();

  private final Map<String, List<Schema>> versionsByName;

  private SchemaHistory(Map<String, List<Schema>> versionsByName) {
    this.versionsByName = versionsByName;
  }

  /** The versions listed in {@code schemas/released/INDEX}. */
  public static SchemaHistory released() {
    return RELEASED;
  }

  /** Every released version of the record with this full name, oldest first. */
  public List<Schema> versionsOf(String fullName) {
    return versionsByName.getOrDefault(fullName, List.of());
  }

  private static SchemaHistory load() {
    Map<String, List<Schema>> versions = new HashMap<>();
    Map<String, Schema.Parser> parserPerRelease = new HashMap<>();
    for (String entry : indexEntries()) {
      String release = entry.substring(0, entry.indexOf('/'));
      // One parser per release: its files refer to each other's named types.
      Schema.Parser parser = parserPerRelease.computeIfAbsent(release, name -> new Schema.Parser());
      try (InputStream in = resource(ROOT + entry)) {
        Schema schema = parser.parse(in);
        versions.computeIfAbsent(schema.getFullName(), name -> new ArrayList<>()).add(schema);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read released schema " + entry, e);
      }
    }
    versions.replaceAll((name, list) -> List.copyOf(list));
    return new SchemaHistory(Map.copyOf(versions));
  }

  private static List<String> indexEntries() {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(resource(ROOT + "INDEX"), StandardCharsets.UTF_8))) {
      return reader.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + ROOT + "INDEX", e);
    }
  }

  private static InputStream resource(String path) {
    InputStream in = SchemaHistory.class.getClassLoader().getResourceAsStream(path);
    if (in == null) {
      throw new IllegalStateException("missing resource " + path + ": was schemas/ copied into the events jar?");
    }
    return in;
  }
}
