package io.seqsync.ingress.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.seqsync.ingress.http.Json;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A page of a fetch written as JSON bytes: the bytes {@link Json#MAPPER} makes of
 * {@link Views.Fetched}, field for field, without the mapper's reflection over the records (the
 * page is the hottest answer there is; the Jetty fast path sends it). A field added to {@link Views.Fetched} or {@link Views.Message} must be added here too;
 * {@code FetchedJsonTest} compares both ways.
 */
public final class FetchedJson {
  // Writing UTF-8, Jackson escapes a character beyond U+FFFF as two surrogates by default; the
  // mapper's String output (Javalin's ctx.json) has the character itself, as this does.
  private static final ObjectWriter WRITER =
      Json.MAPPER.writer().with(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

  // A message's names, encoded once: encoding 500 names a page was a third of the writing (JFR).
  private static final SerializedString MSG_ID = new SerializedString("msgId");
  private static final SerializedString CONV_ID = new SerializedString("convId");
  private static final SerializedString SEQ = new SerializedString("seq");
  private static final SerializedString SENDER_ID = new SerializedString("senderId");
  private static final SerializedString SENDER_DEVICE = new SerializedString("senderDevice");
  private static final SerializedString CLIENT_MSG_ID = new SerializedString("clientMsgId");
  private static final SerializedString TYPE = new SerializedString("type");
  private static final SerializedString CONTENT = new SerializedString("content");
  private static final SerializedString ATTACHMENT = new SerializedString("attachment");
  private static final SerializedString CREATE_TIME = new SerializedString("createTime");
  private static final SerializedString RECALLED = new SerializedString("recalled");

  private FetchedJson() {}

  /** Writes {@code page} to {@code out}; neither flushes nor closes {@code out}. */
  public static void write(Views.Fetched page, OutputStream out) throws IOException {
    try (JsonGenerator json = WRITER.createGenerator(out)) {
      json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      // Onto a response stream, a flush would commit the response before its end (sent chunked,
      // in two writes, instead of whole with a Content-Length).
      json.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
      json.writeStartObject();
      json.writeArrayFieldStart("messages");
      for (Views.Message message : page.messages()) {
        message(json, message);
      }
      json.writeEndArray();
      json.writeBooleanField("hasMore", page.hasMore());
      json.writeNumberField("nextAfter", page.nextAfter());
      json.writeNumberField("latestSeq", page.latestSeq());
      if (page.realign() != null) { // @JsonInclude(NON_NULL) on the record
        json.writeNumberField("realign", page.realign());
      }
      if (page.archiveHint() != null) {
        json.writeObjectFieldStart("archiveHint");
        json.writeStringField("convId", page.archiveHint().convId());
        json.writeNumberField("archivedSeq", page.archiveHint().archivedSeq());
        json.writeEndObject();
      }
      json.writeEndObject();
    }
  }

  private static void message(JsonGenerator json, Views.Message m) throws IOException {
    json.writeStartObject();
    string(json, MSG_ID, m.msgId());
    string(json, CONV_ID, m.convId());
    json.writeFieldName(SEQ);
    json.writeNumber(m.seq());
    string(json, SENDER_ID, m.senderId());
    string(json, SENDER_DEVICE, m.senderDevice());
    string(json, CLIENT_MSG_ID, m.clientMsgId());
    string(json, TYPE, m.type());
    string(json, CONTENT, m.content());
    json.writeFieldName(CREATE_TIME);
    json.writeNumber(m.createTime());
    json.writeFieldName(RECALLED);
    json.writeBoolean(m.recalled());
    if (m.attachment() != null) {
      json.writeFieldName(ATTACHMENT);
      json.writeRawValue(m.attachment());
    }
    if (m.edited() != null || m.replyTo() != null || m.mentions() != null || m.reactions() != null) {
      actions(json, m);
    }
    json.writeEndObject();
  }

  // Message actions' state: rare, so written by the mapper rather than field by field.
  private static void actions(JsonGenerator json, Views.Message m) throws IOException {
    if (m.edited() != null) {
      json.writeBooleanField("edited", m.edited());
      json.writeNumberField("editedAt", m.editedAt());
    }
    if (m.replyTo() != null) {
      json.writeFieldName("replyTo");
      WRITER.writeValue(json, m.replyTo());
    }
    if (m.mentions() != null) {
      json.writeFieldName("mentions");
      WRITER.writeValue(json, m.mentions());
    }
    if (m.reactions() != null) {
      json.writeFieldName("reactions");
      WRITER.writeValue(json, m.reactions());
    }
  }

  private static void string(JsonGenerator json, SerializedString name, String value) throws IOException {
    json.writeFieldName(name);
    json.writeString(value);
  }
}
