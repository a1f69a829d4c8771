package io.seqsync.ingress.auth;

/**
 * The adopting team's backend calling the server API: the subject of a verified service token
 * (docs/design.md, "Service tokens"). A service is no chat user: its token opens no user route,
 * and a user's token opens no server route.
 */
public record Service(String name) {}
