package io.seqsync.ingress.auth;

/**
 * A token that verified: its caller, when it was issued ({@code iat}; 0 when the token does not
 * say, so that any sign-out of its device refuses it) and when it expires, in epoch milliseconds.
 */
public record VerifiedToken(Caller caller, long issuedAtMillis, long expiresAtMillis) {}
