package io.seqsync.ingress;

import io.seqsync.ingress.auth.TokenVerifier;
import io.seqsync.ingress.web.DevSignIn;
import java.util.Optional;

/**
 * Who callers are: the verifier of their tokens (chat users' and operators'), and the development
 * sign-in where every server is embedded (empty anywhere else: its route then does not exist).
 */
public record Identity(TokenVerifier tokens, Optional<DevSignIn> devSignIn) {}
