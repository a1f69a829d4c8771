package io.seqsync.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** The benchmarks' command lines: {@code --name=value} or {@code --name value}, only known names. */
public final class CliOptions {
  private CliOptions() {}

  /**
   * {@code parser} applied to {@code args}; on a bad command line, or -h, prints the problem and
   * {@code usage} and exits (2, or 0 for help).
   */
  public static <T> T parseOrExit(String[] args, Function<String[], T> parser, String usage) {
    try {
      return parser.apply(args);
    } catch (IllegalArgumentException e) {
      boolean help = "help".equals(e.getMessage());
      if (!help) {
        System.err.println(e.getMessage());
      }
      System.err.println(usage);
      System.exit(help ? 0 : 2);
      throw e;
    }
  }

  /** The given options by name; throws {@code IllegalArgumentException("help")} for -h/--help. */
  public static Map<String, String> parse(String[] args, Set<String> names) {
    Map<String, String> given = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-h") || arg.equals("--help")) {
        throw new IllegalArgumentException("help");
      }
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument " + arg);
      }
      String name = arg.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      if (!names.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name);
      }
      given.put(name, value);
    }
    return given;
  }
}
