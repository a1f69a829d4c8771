package io.seqsync.notifier.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class WebPushEncryptionTest {
  private static final Base64.Decoder B64 = Base64.getUrlDecoder();

  // RFC 8291, section 5 ("Push Message Encryption Example").
  @Test
  void encryptsTheRfcExampleToTheRfcBody() throws Exception {
    byte[] plaintext = "When I grow up, I want to be a watermelon".getBytes(StandardCharsets.UTF_8);
    byte[] asPublic = B64.decode("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8");
    ECPrivateKey asPrivate = WebPushEncryption.privateKey(B64.decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"));
    byte[] uaPublic = B64.decode("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4");
    ECPrivateKey uaPrivate = WebPushEncryption.privateKey(B64.decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"));
    byte[] salt = B64.decode("DGv6ra1nlYgDCS1FRnbzlw");
    byte[] auth = B64.decode("BTBZMqHH6r4Tts7J_aSIgg");

    byte[] body = WebPushEncryption.encrypt(plaintext, uaPublic, auth,
        new KeyPair(WebPushEncryption.publicKey(asPublic), asPrivate), salt);

    assertThat(Base64.getUrlEncoder().withoutPadding().encodeToString(body)).isEqualTo(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_"
            + "yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN");
    assertThat(WebPushEncryption.decrypt(body, uaPrivate, uaPublic, auth)).isEqualTo(plaintext);
  }

  @Test
  void aFreshEncryptionDecryptsWithTheSubscriptionsKeysOnly() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair ua = generator.generateKeyPair();
    byte[] uaPublic = WebPushEncryption.uncompressed((ECPublicKey) ua.getPublic());
    byte[] auth = new byte[16];
    auth[3] = 7;
    byte[] plaintext = "{\"convId\":\"d:1:2\",\"unread\":3}".getBytes(StandardCharsets.UTF_8);

    byte[] first = WebPushEncryption.encrypt(plaintext, uaPublic, auth);
    byte[] second = WebPushEncryption.encrypt(plaintext, uaPublic, auth);

    assertThat(first).isNotEqualTo(second);
    assertThat(WebPushEncryption.decrypt(first, (ECPrivateKey) ua.getPrivate(), uaPublic, auth)).isEqualTo(plaintext);
    byte[] wrongAuth = auth.clone();
    wrongAuth[0] = 1;
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
        WebPushEncryption.decrypt(first, (ECPrivateKey) ua.getPrivate(), uaPublic, wrongAuth))
        .isInstanceOf(java.security.GeneralSecurityException.class);
  }
}
