package io.seqsync.ingress.auth;

import com.nimbusds.jose.Header;
import com.nimbusds.jose.util.Base64URL;
import java.text.ParseException;
import java.util.Optional;

/**
 * Every bearer token the server accepts: HS256 ones signed with its own secret ({@link Tokens}) and,
 * when an identity provider is configured, RS256 and ES256 ones of that provider
 * ({@link IdentityProviderTokens}). The header's {@code alg} only chooses which of the two checks
 * the signature, and each accepts only its own algorithms: an HS256 token signed with the
 * provider's public key as its secret (algorithm confusion) goes to the secret's check and fails
 * there; {@code none} and any other algorithm are refused. Thread-safe.
 */
public final class BearerTokens implements TokenVerifier {
  private final Tokens own;
  private final Optional<IdentityProviderTokens> identityProvider;

  public BearerTokens(Tokens own, Optional<IdentityProviderTokens> identityProvider) {
    this.own = own;
    this.identityProvider = identityProvider;
  }

  @Override
  public VerifiedToken token(String token) {
    return verifierOf(token).token(token);
  }

  @Override
  public Optional<Operator> operator(String token) {
    return verifierOf(token).operator(token);
  }

  @Override
  public Optional<Service> service(String token) {
    return verifierOf(token).service(token);
  }

  private TokenVerifier verifierOf(String token) {
    String algorithm;
    try {
      algorithm = Header.parse(new Base64URL(token.substring(0, Math.max(0, token.indexOf('.'))))).getAlgorithm().getName();
    } catch (ParseException | RuntimeException e) {
      throw new InvalidTokenException("invalid_token", "the token is not valid");
    }
    return switch (algorithm) {
      case "HS256" -> own;
      case "RS256", "ES256" -> identityProvider.orElseThrow(() -> new InvalidTokenException("invalid_token",
          "tokens signed " + algorithm + " need an identity provider (auth.jwks-url), and none is configured"));
      default -> throw new InvalidTokenException("invalid_token", "tokens signed " + algorithm + " are not accepted");
    };
  }
}
