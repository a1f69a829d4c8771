package io.seqsync.notifier.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Which events of the log a webhook receives, and as what (docs/api.md, "Webhooks"): each kind of
 * event payload, by its Avro record's name, maps to a webhook type and its {@code data}. A payload
 * without a mapping of its own is written as its Avro record is (ids as numbers); a payload no type
 * names is not sent. Adding a type is a line here and a name in {@code Integrations.EVENT_TYPES}.
 * Stateless.
 */
final class WebhookEvents {
  static final ObjectMapper JSON = new ObjectMapper();

  /** A webhook type and how to write its data, for one kind of payload. */
  private record Mapping(String type, Function<Event, JsonNode> data) {}

  private static final Map<String, Mapping> BY_PAYLOAD = Map.of(
      "MessageAppended", new Mapping("message.sent",
          event -> message(((MessageAppended) event.getPayload()).getMessage())),
      "RecallApplied", new Mapping("message.recalled", event -> {
        RecallApplied recall = (RecallApplied) event.getPayload();
        return JSON.createObjectNode().put("convId", event.getConvId()).put("seq", recall.getRecalledSeq())
            .set("notice", message(recall.getNotice()));
      }),
      // The actions' edit: written as its record is until it has a mapping of its own.
      "MessageEdited", new Mapping("message.edited", WebhookEvents::asRecorded),
      "ReadAdvanced", new Mapping("read", event -> {
        ReadAdvanced read = (ReadAdvanced) event.getPayload();
        return JSON.createObjectNode().put("convId", event.getConvId()).put("userId", Long.toString(read.getUserId()))
            .put("deviceId", read.getDeviceId()).put("seq", read.getSeq());
      }),
      "MembershipChanged", new Mapping("membership.changed", event -> {
        MembershipChanged change = (MembershipChanged) event.getPayload();
        ObjectNode data = JSON.createObjectNode().put("convId", event.getConvId())
            .put("groupName", change.getGroupName());
        data.putArray("added");
        data.putArray("removed");
        change.getAdded().forEach(id -> data.withArray("added").add(Long.toString(id)));
        change.getRemoved().forEach(id -> data.withArray("removed").add(Long.toString(id)));
        data.set("notice", message(change.getNotice()));
        return data;
      }));

  /** What a webhook of {@code event} is: its type and data; empty when no type names the event. */
  record Described(String type, JsonNode data) {}

  private WebhookEvents() {}

  static Optional<Described> describe(Event event) {
    Object payload = event.getPayload();
    if (!(payload instanceof SpecificRecord record)) {
      return Optional.empty();
    }
    Mapping mapping = BY_PAYLOAD.get(record.getSchema().getName());
    return mapping == null ? Optional.empty() : Optional.of(new Described(mapping.type(), mapping.data().apply(event)));
  }

  // As the API writes a message: 64-bit ids as decimal strings, the type in lower case.
  private static JsonNode message(Message message) {
    return JSON.createObjectNode()
        .put("msgId", Long.toString(message.getMsgId()))
        .put("convId", message.getConvId())
        .put("seq", message.getSeq())
        .put("senderId", Long.toString(message.getSenderId()))
        .put("senderDevice", message.getSenderDevice())
        .put("clientMsgId", message.getClientMsgId())
        .put("type", message.getType().name().toLowerCase(Locale.ROOT))
        .put("content", message.getContent())
        .put("createTime", message.getCreateTime());
  }

  private static JsonNode asRecorded(Event event) {
    try {
      ObjectNode data = (ObjectNode) JSON.readTree(GenericData.get().toString(event.getPayload()));
      return data.put("convId", event.getConvId());
    } catch (JsonProcessingException | ClassCastException e) {
      return JSON.createObjectNode().put("convId", event.getConvId());
    }
  }
}
