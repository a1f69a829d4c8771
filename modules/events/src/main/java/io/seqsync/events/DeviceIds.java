package io.seqsync.events;

/** Device ids: 1-64 characters of {@code A-Za-z0-9._-} (API.md: Identity). */
public final class DeviceIds {
  private static final int MAX_LENGTH = 64;

  private DeviceIds() {}

  public static boolean isValid(String deviceId) {
    return deviceId != null && !deviceId.isEmpty() && deviceId.length() <= MAX_LENGTH
        && IdChars.lettersDigitsOr(deviceId, 0, "._-");
  }
}
