package io.seqsync.ingress.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.seqsync.config.IdentityProviderSettings;
import io.seqsync.ingress.TestApp;
import io.seqsync.ingress.http.ApiException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Identity-provider tokens against a JWKS this test serves over real HTTP, as Keycloak or Auth0 publish theirs. */
class IdentityProviderTokensTest {
  private static final String ISSUER = "https://idp.example/realms/chat";
  private static final String AUDIENCE = "seqsync";

  private final RSAKey rsa = generateRsa("rsa-1");
  private final ECKey ec = generateEc("ec-1");
  private final AtomicInteger fetches = new AtomicInteger();
  private volatile String jwks;
  private HttpServer server;

  @BeforeEach
  void serveJwks() throws IOException {
    publish(rsa, ec);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/jwks", exchange -> {
      fetches.incrementAndGet();
      byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void rs256AndEs256TokensOfTheProviderNameTheirCaller() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(30));
    assertThat(tokens.verify(sign(rsa, claims -> { }))).isEqualTo(new Caller(42, "phone"));
    assertThat(tokens.verify(sign(ec, claims -> claims.subject("43").claim("did", "tab.1")))).isEqualTo(new Caller(43, "tab.1"));
    assertThat(fetches.get()).as("one fetch of the JWKS serves both keys").isEqualTo(1);
  }

  @Test
  void aRotatedKeyIsAcceptedOnceTheProviderPublishesIt() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(30));
    assertThat(tokens.verify(sign(rsa, claims -> { }))).isEqualTo(new Caller(42, "phone"));
    RSAKey rotated = generateRsa("rsa-2");
    String byTheNewKey = sign(rotated, claims -> claims.subject("44"));
    publish(rotated, ec); // the old key withdrawn, the new one published
    assertThat(tokens.verify(byTheNewKey)).isEqualTo(new Caller(44, "phone"));
    assertThat(fetches.get()).isEqualTo(2);
  }

  @Test
  void unknownKeysAreRefusedAndFetchTheJwksAtMostTwiceAnInterval() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(30));
    assertThat(tokens.verify(sign(rsa, claims -> { }))).isEqualTo(new Caller(42, "phone"));
    for (int i = 0; i < 20; i++) {
      String byAnUnknownKey = sign(generateEc("made-up-" + i), claims -> { });
      assertThat(code(() -> tokens.verify(byAnUnknownKey))).isEqualTo("invalid_token");
    }
    assertThat(fetches.get()).as("a flood of unknown kids is rate-limited").isBetween(2, 3);
  }

  @Test
  void wrongIssuerAudienceAndMissingExpiryAreRefused() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(30));
    assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.issuer("https://evil.example"))))).isEqualTo("invalid_token");
    assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.audience("another-client"))))).isEqualTo("invalid_token");
    assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.audience((String) null))))).isEqualTo("invalid_token");
    assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.expirationTime(null))))).isEqualTo("invalid_token");
    // Several audiences, ours among them: accepted.
    assertThat(tokens.verify(sign(rsa, claims -> claims.audience(List.of("account", AUDIENCE))))).isEqualTo(new Caller(42, "phone"));
  }

  @Test
  void algNoneAndAnHs256TokenSignedWithThePublicKeyAreRefused() throws JOSEException {
    IdentityProviderTokens provider = provider("sub", "did", Duration.ofSeconds(30));
    BearerTokens bearer = new BearerTokens(new Tokens(TestApp.SECRET), Optional.of(provider));
    String unsigned = new PlainJWT(validClaims().build()).serialize();
    // Algorithm confusion: the provider's public key (as published, or as PEM) used as an HMAC secret.
    String pem = "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(rsa.toRSAPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    for (byte[] secret : List.of(pem.getBytes(StandardCharsets.UTF_8),
        rsa.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8), rsa.toRSAPublicKey().getEncoded())) {
      SignedJWT confused = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(rsa.getKeyID()).build(),
          validClaims().build());
      confused.sign(new MACSigner(secret));
      assertThat(code(() -> bearer.verify(confused.serialize()))).isEqualTo("invalid_token");
      assertThat(code(() -> provider.verify(confused.serialize()))).isEqualTo("invalid_token");
    }
    assertThat(code(() -> bearer.verify(unsigned))).isEqualTo("invalid_token");
    assertThat(code(() -> provider.verify(unsigned))).isEqualTo("invalid_token");
    // RS384 by a published key: not one of the two algorithms.
    SignedJWT rs384 = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS384).keyID(rsa.getKeyID()).build(), validClaims().build());
    rs384.sign(new RSASSASigner(rsa));
    assertThat(code(() -> bearer.verify(rs384.serialize()))).isEqualTo("invalid_token");
    assertThat(code(() -> provider.verify(rs384.serialize()))).isEqualTo("invalid_token");
    // Garbage never reaches a check.
    for (String garbage : List.of("", ".", "a.b.c", "eyJhbGciOiJSUzI1NiJ9", "x".repeat(100))) {
      assertThat(code(() -> bearer.verify(garbage))).as(garbage).isEqualTo("invalid_token");
    }
    // The server's own HS256 tokens still verify beside the provider's.
    assertThat(bearer.verify(new Tokens(TestApp.SECRET).mint(7, "web", Duration.ofMinutes(5)))).isEqualTo(new Caller(7, "web"));
    assertThat(bearer.verify(sign(rsa, claims -> { }))).isEqualTo(new Caller(42, "phone"));
  }

  @Test
  void expiryIsAllowedTheClockSkewAndNoMore() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(60));
    assertThat(tokens.verify(sign(rsa, claims -> claims.expirationTime(Date.from(Instant.now().minusSeconds(20))))))
        .isEqualTo(new Caller(42, "phone"));
    assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.expirationTime(Date.from(Instant.now().minusSeconds(120)))))))
        .isEqualTo("token_expired");
    assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.notBeforeTime(Date.from(Instant.now().plusSeconds(600)))))))
        .isEqualTo("invalid_token");
  }

  @Test
  void theConfiguredClaimsMustNameAValidUserAndDevice() {
    IdentityProviderTokens tokens = provider("seqsync_uid", "device", Duration.ofSeconds(30));
    assertThat(tokens.verify(sign(rsa, claims -> claims.subject("f3b1c2a0-uuid").claim("seqsync_uid", "77").claim("device", "d1"))))
        .isEqualTo(new Caller(77, "d1"));
    assertThat(tokens.verify(sign(rsa, claims -> claims.claim("seqsync_uid", 78L).claim("device", "d1"))))
        .isEqualTo(new Caller(78, "d1"));
    for (Object user : new Object[] {null, "f3b1c2a0-uuid", "0", "-5", "+5", "007", "9223372036854775808", 1.5, 0L, true}) {
      assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.claim("seqsync_uid", user).claim("device", "d1")))))
          .as(String.valueOf(user)).isEqualTo("invalid_user_claim");
    }
    for (Object device : new Object[] {null, "", "my phone", "x".repeat(65), 5L}) {
      assertThat(code(() -> tokens.verify(sign(rsa, claims -> claims.claim("seqsync_uid", "77").claim("device", device)))))
          .as(String.valueOf(device)).isEqualTo("invalid_device_claim");
    }
  }

  @Test
  void anOperatorHasTheOpsRoleInTheConfiguredClaim() {
    IdentityProviderTokens keycloak = provider("sub", "did", Duration.ofSeconds(30), "realm_access.roles");
    assertThat(keycloak.operator(sign(rsa, claims -> claims.subject("admin-uuid")
        .claim("realm_access", Map.of("roles", List.of("offline_access", "seqsync-ops"))))))
        .contains(new Operator("admin-uuid"));
    assertThat(keycloak.operator(sign(rsa, claims -> claims.claim("realm_access", Map.of("roles", List.of("user"))))))
        .isEmpty();
    assertThat(keycloak.operator(sign(rsa, claims -> { }))).isEmpty();
    IdentityProviderTokens groups = provider("sub", "did", Duration.ofSeconds(30), "cognito:groups");
    assertThat(groups.operator(sign(ec, claims -> claims.subject("x").claim("cognito:groups", List.of("seqsync-ops")))))
        .contains(new Operator("x"));
    assertThat(groups.operator(sign(ec, claims -> claims.claim("cognito:groups", "seqsync-ops")))).isPresent();
    assertThat(code(() -> groups.operator(sign(ec, claims -> claims.issuer("https://evil.example")
        .claim("cognito:groups", List.of("seqsync-ops")))))).isEqualTo("invalid_token");
  }

  @Test
  void aServiceTokenHasTheServiceRoleAndOpensNoUserRoute() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(30));
    String service = sign(rsa, claims -> claims.subject("billing").claim("service", List.of("seqsync-service")));
    assertThat(tokens.service(service)).contains(new Service("billing"));
    assertThat(code(() -> tokens.verify(service))).isEqualTo("service_token");

    String user = sign(rsa, claims -> { });
    assertThat(tokens.service(user)).as("a user's token is no service's").isEmpty();
    assertThat(tokens.verify(user)).isEqualTo(new Caller(42, "phone"));
    assertThat(code(() -> tokens.service(sign(rsa, claims -> claims.subject("no spaces please").claim("service", true)))))
        .isEqualTo("invalid_service_claim");
  }

  @Test
  void aProviderThatCannotBeReachedAnswers503ForAKeyNotCachedYet() {
    IdentityProviderTokens tokens = provider("sub", "did", Duration.ofSeconds(30));
    server.stop(0);
    assertThatThrownBy(() -> tokens.verify(sign(rsa, claims -> { }))).isInstanceOfSatisfying(ApiException.class,
        e -> assertThat(e.status()).isEqualTo(503));
  }

  private IdentityProviderTokens provider(String userClaim, String deviceClaim, Duration skew) {
    return provider(userClaim, deviceClaim, skew, "ops");
  }

  private IdentityProviderTokens provider(String userClaim, String deviceClaim, Duration skew, String opsClaim) {
    URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
    return new IdentityProviderTokens(new IdentityProviderSettings(url, ISSUER, AUDIENCE, userClaim, deviceClaim,
        skew, opsClaim, "seqsync-ops"), "service", "seqsync-service");
  }

  private void publish(JWK... keys) {
    jwks = new JWKSet(List.of(keys)).toString(); // public parts only
  }

  private static JWTClaimsSet.Builder validClaims() {
    return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("42").claim("did", "phone")
        .issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(300)));
  }

  private static String sign(JWK key, Consumer<JWTClaimsSet.Builder> edit) {
    JWTClaimsSet.Builder claims = validClaims();
    edit.accept(claims);
    try {
      boolean isRsa = key instanceof RSAKey;
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(isRsa ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256)
          .keyID(key.getKeyID()).build(), claims.build());
      JWSSigner signer = isRsa ? new RSASSASigner((RSAKey) key) : new ECDSASigner((ECKey) key);
      jwt.sign(signer);
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String code(Runnable verification) {
    try {
      verification.run();
    } catch (InvalidTokenException e) {
      return e.code();
    }
    throw new AssertionError("the token was accepted");
  }

  private static RSAKey generateRsa(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ECKey generateEc(String kid) {
    try {
      return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
