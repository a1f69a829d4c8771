package io.seqsync.ingress.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import io.seqsync.ingress.TestApp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokensTest {
  private final Tokens tokens = new Tokens(TestApp.SECRET);

  @Test
  void aMintedTokenVerifiesToItsCaller() {
    String token = tokens.mint(9_223_372_036_854_775_807L, "phone_1.a-b", Duration.ofMinutes(5));
    assertThat(tokens.verify(token)).isEqualTo(new Caller(9_223_372_036_854_775_807L, "phone_1.a-b"));

    // The claims are the documented ones.
    var decoded = JWT.decode(token);
    assertThat(decoded.getAlgorithm()).isEqualTo("HS256");
    assertThat(decoded.getSubject()).isEqualTo("9223372036854775807");
    assertThat(decoded.getClaim("did").asString()).isEqualTo("phone_1.a-b");
    assertThat(decoded.getExpiresAtAsInstant()).isAfter(Instant.now());
  }

  @Test
  void aServiceTokenNamesItsServiceAndNoUser() {
    String service = tokens.mintService("billing", Duration.ofMinutes(5));
    assertThat(tokens.service(service)).contains(new Service("billing"));
    assertThatThrownBy(() -> tokens.verify(service)).isInstanceOfSatisfying(InvalidTokenException.class,
        e -> assertThat(e.code()).isEqualTo("service_token"));
    assertThat(tokens.service(tokens.mint(1, "phone", Duration.ofMinutes(5)))).isEmpty();
    assertThat(tokens.service(tokens.mintOperator(Duration.ofMinutes(5)))).isEmpty();
  }

  @Test
  void expiredTokensAreRefused() {
    String token = tokens.mint(1, "phone", Instant.now().minusSeconds(60));
    assertThatThrownBy(() -> tokens.verify(token)).isInstanceOfSatisfying(InvalidTokenException.class,
        e -> assertThat(e.code()).isEqualTo("token_expired"));
  }

  @Test
  void aRememberedTokenIsRefusedOnceItExpires() throws InterruptedException {
    Instant expiry = Instant.now().plusSeconds(2);
    String token = tokens.mint(1, "phone", expiry);
    assertThat(tokens.verify(token)).isEqualTo(new Caller(1, "phone"));
    Thread.sleep(Duration.between(Instant.now(), expiry).toMillis() + 1_100); // exp has whole seconds
    assertThatThrownBy(() -> tokens.verify(token)).isInstanceOfSatisfying(InvalidTokenException.class,
        e -> assertThat(e.code()).isEqualTo("token_expired"));
  }

  @Test
  void forgedAndMalformedTokensAreRefused() {
    String other = new Tokens("someone-elses-secret-someone-elses-secret").mint(1, "phone", Duration.ofHours(1));
    String good = tokens.mint(1, "phone", Duration.ofHours(1));
    String[] parts = good.split("\\.");
    String unsigned = base64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + parts[1] + ".";
    String tampered = parts[0] + "." + base64("{\"sub\":\"2\",\"did\":\"phone\",\"exp\":4102444800}") + "." + parts[2];
    assertThat(tokens.verify(good)).isEqualTo(new Caller(1, "phone")); // remembered from now on
    for (String token : new String[] {other, unsigned, tampered, "", "a.b.c", "garbage", good + "x"}) {
      assertThatThrownBy(() -> tokens.verify(token)).as(token).isInstanceOfSatisfying(InvalidTokenException.class,
          e -> assertThat(e.code()).isEqualTo("invalid_token"));
    }
  }

  @Test
  void claimsMustNameAValidCaller() {
    Algorithm algorithm = Algorithm.HMAC256(TestApp.SECRET);
    Instant later = Instant.now().plusSeconds(600);
    String[] tokensWithBadClaims = {
        JWT.create().withSubject("0").withClaim("did", "phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("-5").withClaim("did", "phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("01").withClaim("did", "phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("9223372036854775808").withClaim("did", "phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("alice").withClaim("did", "phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("1").withClaim("did", "my phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("1").withClaim("did", "x".repeat(65)).withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("1").withClaim("did", 7).withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("1").withExpiresAt(later).sign(algorithm),
        JWT.create().withClaim("did", "phone").withExpiresAt(later).sign(algorithm),
        JWT.create().withSubject("1").withClaim("did", "phone").sign(algorithm), // no exp
    };
    for (String token : tokensWithBadClaims) {
      assertThatThrownBy(() -> tokens.verify(token)).as(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1])))
          .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.code()).isEqualTo("invalid_token"));
    }
  }

  @Test
  void secretsAndMintingArgumentsAreChecked() {
    assertThatThrownBy(() -> new Tokens("short")).isInstanceOf(IllegalArgumentException.class);
    assertThat(Tokens.DEV_SECRET.getBytes(StandardCharsets.UTF_8).length).isGreaterThanOrEqualTo(Tokens.MIN_SECRET_BYTES);
    Tokens dev = Tokens.withSecret(Optional.empty());
    assertThat(new Tokens(Tokens.DEV_SECRET).verify(dev.mint(3, "d", Duration.ofMinutes(1)))).isEqualTo(new Caller(3, "d"));
    assertThatThrownBy(() -> tokens.mint(0, "phone", Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tokens.mint(1, "bad device", Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tokens.mint(1, "phone", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  private static String base64(String json) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
