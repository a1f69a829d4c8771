package io.seqsync.ingress.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.Integrations;
import io.seqsync.events.ConvId;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.api.SendRequest;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.ingress.http.Json;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The synchronous pre-send hook for moderation (docs/api.md, "Pre-send hook"): before a user's
 * send goes to Kafka, the configured URL is POSTed the send ({@link PreSendCall}) and answers
 * {@code allow}, {@code reject} with a reason (the sender gets 403 {@code rejected} with it) or
 * {@code rewrite} with new content (sent instead). No answer within {@code hooks.pre-send.budget},
 * a non-2xx or an answer it cannot read is a failure: the send goes on as it is (fail-open) or is
 * refused 503 {@code moderation_unavailable} (fail-closed), as {@code hooks.pre-send.on-failure}
 * says. The hook sees valid sends only (a malformed one is a 400 first); membership and the rest
 * are checked after it, by the send itself. Never on a selector thread: with a hook configured,
 * the fast path hands every send to a pool thread, and the send goes on from this hook's own
 * threads. Thread-safe.
 */
public final class PreSendHook implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PreSendHook.class);
  private static final int THREADS = 8;
  private static final int MAX_REASON = 500;

  private final Integrations.PreSendHook settings;
  private final int maxContentBytes;
  private final ExecutorService threads;
  private final HttpClient client;
  private final MeterRegistry registry;
  private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();

  public PreSendHook(Integrations.PreSendHook settings, int maxContentBytes, MeterRegistry registry) {
    this.settings = settings;
    this.maxContentBytes = maxContentBytes;
    this.registry = registry;
    AtomicInteger count = new AtomicInteger();
    this.threads = Executors.newFixedThreadPool(THREADS, runnable -> {
      Thread thread = new Thread(runnable, "pre-send-hook-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.client = HttpClient.newBuilder().executor(threads).connectTimeout(settings.budget())
        .version(HttpClient.Version.HTTP_1_1).build();
  }

  /** {@code send}, after the hook's verdict. */
  public Endpoint<Caller> guard(Endpoint<Caller> send) {
    return (caller, request) -> {
      byte[] body = request.body();
      ObjectNode json = Json.object(body);
      ConvId convId = AccessControl.convId(request.pathParam("convId"));
      SendRequest parsed = SendRequest.parse(json, maxContentBytes);
      return ask(new PreSendCall(convId.value(), caller, parsed))
          .thenComposeAsync(verdict -> decided(verdict, send, caller, request, json), threads);
    };
  }

  private CompletableFuture<Answer> decided(Verdict verdict, Endpoint<Caller> send, Caller caller, ApiRequest request,
      ObjectNode json) {
    if (verdict instanceof Verdict.Reject reject) {
      count("reject");
      throw ApiException.forbidden("rejected", reject.reason());
    }
    if (verdict instanceof Verdict.Rewrite rewrite) {
      count("rewrite");
      ObjectNode rewritten = json.deepCopy();
      rewritten.put("content", rewrite.content());
      return send.answer(caller, new RewrittenRequest(request, Json.bytes(rewritten)));
    }
    if (verdict instanceof Verdict.Failed) {
      return failed(send, caller, request);
    }
    count("allow");
    return send.answer(caller, request);
  }

  private CompletableFuture<Answer> failed(Endpoint<Caller> send, Caller caller, ApiRequest request) {
    if (settings.failOpen()) {
      count("failed_open");
      return send.answer(caller, request);
    }
    count("failed_closed");
    throw ApiException.retryLater(503, "moderation_unavailable",
        "the moderation hook did not answer in time; retry later", 1);
  }

  private CompletableFuture<Verdict> ask(PreSendCall call) {
    HttpRequest request = HttpRequest.newBuilder(settings.url())
        .timeout(settings.budget())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(call)))
        .build();
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .orTimeout(settings.budget().toMillis(), TimeUnit.MILLISECONDS)
        .thenApply(PreSendHook::verdict)
        .exceptionally(failure -> {
          log.debug("pre-send hook failed: {}", failure.toString());
          return new Verdict.Failed();
        });
  }

  private static Verdict verdict(HttpResponse<byte[]> response) {
    if (response.statusCode() / 100 != 2) {
      return new Verdict.Failed();
    }
    JsonNode answer;
    try {
      answer = Json.MAPPER.readTree(response.body());
    } catch (java.io.IOException e) {
      return new Verdict.Failed();
    }
    String action = answer == null ? "" : answer.path("action").asText("");
    return switch (action) {
      case "allow" -> new Verdict.Allow();
      case "reject" -> new Verdict.Reject(reason(answer.path("reason").asText("")));
      case "rewrite" -> answer.path("content").isTextual()
          ? new Verdict.Rewrite(answer.path("content").textValue()) : new Verdict.Failed();
      default -> new Verdict.Failed();
    };
  }

  private static String reason(String reason) {
    String text = reason.isBlank() ? "the message was rejected by moderation" : reason;
    return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON);
  }

  private void count(String outcome) {
    outcomes.computeIfAbsent(outcome, name -> Counter.builder("seqsync.hooks.pre.send")
        .description("sends the pre-send hook decided, by outcome").tag("outcome", name).register(registry)).increment();
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }

  /** What the hook said. */
  sealed interface Verdict {
    record Allow() implements Verdict {}

    record Reject(String reason) implements Verdict {}

    record Rewrite(String content) implements Verdict {}

    /** No usable answer within the budget. */
    record Failed() implements Verdict {}
  }
}
