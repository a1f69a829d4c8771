package io.seqsync.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Versioned schema migrations: the SQL files {@code db/migration/V<n>__<name>.sql} listed in
 * {@code db/migration/INDEX}, each applied once, in version order, in its own transaction. An
 * advisory lock lets several instances start at once.
 */
final class Migrations {
  private static final Logger log = LoggerFactory.getLogger(Migrations.class);
  private static final String ROOT = "db/migration/";
  private static final Pattern FILE_NAME = Pattern.compile("V(\\d+)__(\\w+)\\.sql");
  private static final long LOCK_KEY = 0x5e95_0c00L;

  private Migrations() {}

  static void apply(Jdbi jdbi) {
    List<String> files = read(ROOT + "INDEX").lines()
        .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    jdbi.useTransaction(handle -> {
      handle.execute("select pg_advisory_xact_lock(?)", LOCK_KEY);
      handle.execute("create table if not exists schema_migrations ("
          + "version integer primary key, name text not null, applied_at timestamptz not null default now())");
      Set<Integer> applied = handle.createQuery("select version from schema_migrations")
          .mapTo(Integer.class).collect(Collectors.toSet());
      for (String file : files) {
        Matcher name = FILE_NAME.matcher(file);
        if (!name.matches()) {
          throw new IllegalStateException("migration file name must be V<n>__<name>.sql: " + file);
        }
        int version = Integer.parseInt(name.group(1));
        if (!applied.contains(version)) {
          handle.createScript(read(ROOT + file)).execute();
          handle.execute("insert into schema_migrations (version, name) values (?, ?)", version, name.group(2));
          log.info("applied migration {}", file);
        }
      }
    });
  }

  private static String read(String path) {
    try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines()
          .collect(Collectors.joining("\n"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
