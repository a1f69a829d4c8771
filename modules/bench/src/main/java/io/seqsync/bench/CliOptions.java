package io.seqsync.bench;

import io.seqsync.config.CommandLineOptions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

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

  /**
   * The given options by name (without their {@code --}), parsed as the app's subcommands parse
   * theirs; throws {@code IllegalArgumentException("help")} for -h/--help.
   */
  public static Map<String, String> parse(String[] args, Set<String> names) {
    if (Arrays.asList(args).contains("-h") || Arrays.asList(args).contains("--help")) {
      throw new IllegalArgumentException("help");
    }
    Set<String> known = names.stream().map(name -> "--" + name).collect(Collectors.toSet());
    Map<String, String> given = new HashMap<>();
    CommandLineOptions.parse(args, known).forEach((option, value) -> given.put(option.substring(2), value));
    return given;
  }
}
