package io.seqsync.ingress.auth;

/** Who is calling: the user and device named by a verified token, never by a body or path. */
public record Caller(long userId, String deviceId) {}
