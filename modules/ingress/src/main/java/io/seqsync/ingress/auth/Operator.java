package io.seqsync.ingress.auth;

/** Who is looking at the ops dashboard: the subject of a verified token that carries the ops claim. */
public record Operator(String subject) {}
