package io.seqsync.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The options of a subcommand: {@code --name value} or {@code --name=value}, each known and given at most once. */
public final class CommandLineOptions {
  private CommandLineOptions() {}

  /** Each option's value by name; throws {@link IllegalArgumentException} saying what is wrong with {@code args}. */
  public static Map<String, String> parse(String[] args, Set<String> known) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      String value;
      int equals = name.indexOf('=');
      if (equals > 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException(known.contains(name) ? name + " needs a value" : "unknown option " + name);
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option " + name);
      }
      if (options.put(name, value) != null) {
        throw new IllegalArgumentException(name + " given twice");
      }
    }
    return options;
  }
}
