package io.seqsync.ingress.attachments;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.config.AttachmentLimits;
import io.seqsync.events.AttachmentRules;
import io.seqsync.events.ConvId;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.api.MessageEndpoints;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.objects.ObjectStore;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StoredMessage;
import java.util.Map;
import java.util.Optional;

/**
 * Attachments' two URLs (docs/api.md, "Attachments"): an upload's, presigned for the caller's own
 * new key with the declared size and type signed in, and a download's, presigned only for a member
 * of the conversation whose message carries the object, and never for a recalled message. Both
 * expire after {@code attachments.url-ttl}. The bytes go between the client and the object store.
 */
public final class AttachmentEndpoints {
  private final Optional<Uploads> uploads;
  private final AccessControl access;
  private final MessageQueries messages;

  public AttachmentEndpoints(Optional<Uploads> uploads, AccessControl access, MessageQueries messages) {
    this.uploads = uploads;
    this.access = access;
    this.messages = messages;
  }

  /** The URL and headers of an upload, and the key a send then names. */
  record Upload(String key, String url, String method, Map<String, String> headers, long expiresAt, long maxBytes) {}

  /** Where to GET an attachment until {@code expiresAt}, and what it is. */
  record Download(String url, long expiresAt, @JsonRawValue String attachment) {}

  /** What the server accepts: answered with attachments off too ({@code enabled} false). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Limits(boolean enabled, Integer maxBytes, java.util.List<String> types, Long urlTtlSeconds) {}

  /** POST /v1/uploads {size, type, name}: 413 beyond the size limit, 415 for a type not allowed. */
  public Answer upload(Caller caller, ApiRequest request) {
    ObjectNode body = Json.object(request.body());
    Uploads on = uploads.orElseThrow(AttachmentEndpoints::unavailable);
    long size = SendAttachments.size(body.get("size"));
    String type = Json.string(body, "type");
    String name = Json.text(body, "name");
    AttachmentLimits limits = on.rules().limits();
    if (size > limits.maxBytes()) {
      throw ApiException.tooLarge("attachment_too_large", "an attachment is at most " + limits.maxBytes() + " bytes");
    }
    if (!limits.types().contains(type)) {
      throw new ApiException(415, "unsupported_type", "type must be one of " + String.join(", ", limits.types()));
    }
    on.rules().uploadProblem(size, type, name).ifPresent(problem -> {
      throw ApiException.badRequest("invalid_field", problem);
    });
    String key = AttachmentRules.newKey(caller.userId());
    ObjectStore.PresignedUrl url = on.store().uploadUrl(key, type, size);
    return Answer.ok(new Upload(key, url.url(), "PUT", Map.of("Content-Type", type), url.expiresAt().toEpochMilli(),
        limits.maxBytes()));
  }

  /** GET /v1/uploads: the limits, for a client to check a file before it asks. */
  public Answer limits(Caller caller, ApiRequest request) {
    return Answer.ok(uploads.map(on -> new Limits(true, on.rules().limits().maxBytes(), on.rules().limits().types(),
        on.store().urlTtl().toSeconds())).orElse(new Limits(false, null, null, null)));
  }

  /**
   * GET /v1/conversations/{convId}/messages/{seq}/attachment: 403 for a non-member, 404 when the
   * message is below the caller's history floor, not in the hot tier or has no attachment, 410 when
   * it was recalled.
   */
  public Answer download(Caller caller, ApiRequest request) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    long seq = MessageEndpoints.seqParam(request.pathParam("seq"));
    long floor = access.requireMember(caller, convId);
    Uploads on = uploads.orElseThrow(AttachmentEndpoints::unavailable);
    StoredMessage message = messages.bySeq(convId.value(), seq).filter(m -> m.seq() > floor)
        .orElseThrow(() -> ApiException.notFound("no_such_message", "no message at seq " + seq + " in " + convId));
    if (message.recalled()) {
      throw new ApiException(410, "recalled", "the message was recalled: its attachment is no longer served");
    }
    if (message.attachment() == null) {
      throw ApiException.notFound("no_attachment", "the message at seq " + seq + " has no attachment");
    }
    JsonNode attachment = parse(message.attachment());
    String type = attachment.path("contentType").asText();
    ObjectStore.PresignedUrl url = on.store().downloadUrl(attachment.path("key").asText(), type,
        attachment.path("name").asText(), type.startsWith("image/"));
    return Answer.ok(new Download(url.url(), url.expiresAt().toEpochMilli(), message.attachment()));
  }

  static ApiException unavailable() {
    return ApiException.unavailable("attachments_unavailable", "this server has no object store (s3.endpoint)");
  }

  private static JsonNode parse(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored attachment is not JSON", e);
    }
  }
}
