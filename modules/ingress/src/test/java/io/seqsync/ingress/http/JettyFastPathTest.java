package io.seqsync.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which paths the fast path takes for the messages route; everything else goes on to Javalin. */
class JettyFastPathTest {
  private static final JettyFastPath MESSAGES =
      new JettyFastPath("/v1/conversations/{convId}/messages", null, null, convId -> false, 1, null);

  @Test
  void takesTheMessagesOfAConversationWithOrWithoutATrailingSlash() {
    assertThat(MESSAGES.paramOf("/v1/conversations/d:1:2/messages")).isEqualTo("d:1:2");
    assertThat(MESSAGES.paramOf("/v1/conversations/g:42/messages/")).isEqualTo("g:42");
    // Not a valid id: the route still takes it, and answers 400 invalid_conv_id as Javalin's did.
    assertThat(MESSAGES.paramOf("/v1/conversations/nonsense/messages")).isEqualTo("nonsense");
  }

  @Test
  void leavesEveryOtherPathToJavalin() {
    assertThat(MESSAGES.paramOf("/v1/conversations")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/d:1:2")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations//messages")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/messages")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/d:1:2/messages/7/recall")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/a/b/messages")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/d:1:2/messagesx")).isNull();
    assertThat(MESSAGES.paramOf("/v1/conversations/d:1:2/draft")).isNull();
    assertThat(MESSAGES.paramOf("/v2/conversations/d:1:2/messages")).isNull();
    assertThat(MESSAGES.paramOf("/health")).isNull();
    assertThat(MESSAGES.paramOf(null)).isNull();
  }
}
