package io.seqsync.ingress.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an endpoint answers: a status and a body of a content type (null: the server's default,
 * for an answer without a body to speak of), with the headers that go beside it (an error's
 * {@code WWW-Authenticate} and {@code Retry-After}, a cache policy, a cookie). Either adapter writes
 * it as it is; the body is rendered once, on the thread that produced the answer.
 */
public record Answer(int status, String contentType, byte[] body, Map<String, String> headers) {
  public static final String JSON = "application/json";

  public Answer {
    headers = Map.copyOf(headers);
  }

  /** {@code view} as JSON (the one shared mapper, as Javalin's {@code ctx.json} wrote it). */
  public static Answer json(int status, Object view) {
    return new Answer(status, JSON, Json.bytes(view), Map.of());
  }

  /** 200 with {@code view} as JSON. */
  public static Answer ok(Object view) {
    return json(200, view);
  }

  /** A body that is JSON already (a page of messages, written by its own writer). */
  public static Answer jsonBytes(int status, byte[] json) {
    return new Answer(status, JSON, json, Map.of());
  }

  /** This answer with one more header. */
  public Answer withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new Answer(status, contentType, body, more);
  }
}
