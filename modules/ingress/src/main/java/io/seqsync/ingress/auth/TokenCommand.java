package io.seqsync.ingress.auth;

import io.seqsync.config.CommandLineOptions;
import io.seqsync.config.Durations;
import io.seqsync.events.DeviceIds;
import io.seqsync.events.UserIds;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code token} subcommand: mints a token for {@code --user ID --device ID [--ttl 30d]}
 * ({@code --name=value} works too), or an operator's for {@code --ops [--ttl 30d]} (the ops dashboard), or a
 * service's for {@code --service NAME [--ttl 30d]} (the server API). A ttl is a number with a unit ({@code 90s}, {@code 15m},
 * {@code 12h}, {@code 30d}) or ISO-8601 ({@code P30D}, {@code PT12H}).
 */
public final class TokenCommand {
  public static final String USAGE =
      "usage: token --user ID --device ID [--ttl 30d] | token --ops [--ttl 30d] | token --service NAME [--ttl 30d]";
  private static final Set<String> OPTIONS = Set.of("--user", "--device", "--ttl");
  private static final String OPS = "--ops";
  private static final String SERVICE = "--service";

  private TokenCommand() {}

  /**
   * Prints a token signed with {@code secret} on {@code out} and returns 0, or prints what is
   * wrong and the usage on {@code err} and returns 2.
   */
  public static int run(String[] args, String secret, Duration defaultTtl, PrintStream out, PrintStream err) {
    try {
      out.println(mint(args, secret, defaultTtl));
      return 0;
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return 2;
    }
  }

  /** The token for {@code args}; throws {@link IllegalArgumentException} saying what is wrong with them. */
  public static String mint(String[] args, String secret, Duration defaultTtl) {
    List<String> given = new ArrayList<>(List.of(args));
    if (given.remove(OPS)) {
      Map<String, String> options = CommandLineOptions.parse(given.toArray(String[]::new), Set.of("--ttl"));
      return new Tokens(secret).mintOperator(options.containsKey("--ttl") ? ttl(options.get("--ttl")) : defaultTtl);
    }
    if (given.contains(SERVICE)) {
      Map<String, String> options = CommandLineOptions.parse(args, Set.of(SERVICE, "--ttl"));
      return new Tokens(secret).mintService(options.get(SERVICE),
          options.containsKey("--ttl") ? ttl(options.get("--ttl")) : defaultTtl);
    }
    Map<String, String> options = CommandLineOptions.parse(args, OPTIONS);
    String user = options.get("--user");
    String device = options.get("--device");
    if (user == null || device == null) {
      throw new IllegalArgumentException("--user and --device are required");
    }
    long userId = UserIds.parse(user)
        .orElseThrow(() -> new IllegalArgumentException("--user must be a positive 64-bit decimal id: " + user));
    if (!DeviceIds.isValid(device)) {
      throw new IllegalArgumentException("--device must be 1-64 characters of A-Za-z0-9._-: " + device);
    }
    Duration ttl = options.containsKey("--ttl") ? ttl(options.get("--ttl")) : defaultTtl;
    return new Tokens(secret).mint(userId, device, ttl);
  }

  static Duration ttl(String text) {
    Duration ttl;
    try {
      ttl = Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ttl must be like 90s, 15m, 12h, 30d or P30D: " + text);
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("--ttl must be positive: " + text);
    }
    return ttl;
  }

}
