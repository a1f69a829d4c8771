package io.seqsync.ingress.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.auth0.jwt.JWT;
import io.seqsync.ingress.TestApp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TokenCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void mintsATokenForTheUserAndDevice() {
    int exit = run("--user", "1", "--device", "phone");
    assertThat(exit).isZero();
    String token = out.toString(StandardCharsets.UTF_8).strip();
    assertThat(new Tokens(TestApp.SECRET).verify(token)).isEqualTo(new Caller(1, "phone"));
    assertThat(JWT.decode(token).getExpiresAtAsInstant())
        .isBetween(Instant.now().plus(Duration.ofDays(30)).minusSeconds(60), Instant.now().plus(Duration.ofDays(30)));
    assertThat(err.size()).isZero();
  }

  @Test
  void mintsAnOperatorsTokenThatNamesNoUser() {
    assertThat(run("--ops", "--ttl", "2h")).isZero();
    String token = out.toString(StandardCharsets.UTF_8).strip();
    Tokens tokens = new Tokens(TestApp.SECRET);
    assertThat(tokens.operator(token)).contains(new Operator("operator"));
    assertThat(JWT.decode(token).getExpiresAtAsInstant()).isBetween(Instant.now().plusSeconds(7_100), Instant.now().plusSeconds(7_201));
    assertThatThrownBy(() -> tokens.verify(token)).isInstanceOf(InvalidTokenException.class);
    assertThat(tokens.operator(tokens.mint(1, "phone", Duration.ofMinutes(1)))).isEmpty();
    err.reset();
    assertThat(run("--ops", "--user", "1")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option --user");
  }

  @Test
  void takesATtl() {
    for (String[] args : new String[][] {{"--user", "2", "--device", "tab", "--ttl", "90s"},
        {"--user=2", "--device=tab", "--ttl=90s"}, {"--ttl", "PT90S", "--device", "tab", "--user", "2"}}) {
      out.reset();
      assertThat(run(args)).isZero();
      Instant expiry = JWT.decode(out.toString(StandardCharsets.UTF_8).strip()).getExpiresAtAsInstant();
      assertThat(expiry).isBetween(Instant.now().plusSeconds(80), Instant.now().plusSeconds(91));
    }
    assertThat(TokenCommand.ttl("12h")).isEqualTo(Duration.ofHours(12));
    assertThat(TokenCommand.ttl("15m")).isEqualTo(Duration.ofMinutes(15));
    assertThat(TokenCommand.ttl("30d")).isEqualTo(Duration.ofDays(30));
  }

  @Test
  void badArgumentsPrintUsageAndExit2() {
    String[][] bad = {{}, {"--user", "1"}, {"--device", "phone"}, {"--user", "0", "--device", "phone"},
        {"--user", "x", "--device", "phone"}, {"--user", "1", "--device", "my phone"},
        {"--user", "1", "--device", "phone", "--ttl", "0s"}, {"--user", "1", "--device", "phone", "--ttl", "soon"},
        {"--user", "1", "--device", "phone", "--colour", "red"}, {"--user", "1", "--user", "2", "--device", "p"},
        {"--user", "1", "--device"}};
    for (String[] args : bad) {
      err.reset();
      out.reset();
      assertThat(run(args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(out.size()).isZero();
      assertThat(err.toString(StandardCharsets.UTF_8)).contains(TokenCommand.USAGE);
    }
  }

  private int run(String... args) {
    return TokenCommand.run(args, TestApp.SECRET, Duration.ofDays(30),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }
}
