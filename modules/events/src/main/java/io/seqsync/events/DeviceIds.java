package io.seqsync.events;

import java.util.regex.Pattern;

/** Device ids: 1-64 characters of {@code A-Za-z0-9._-} (API.md: Identity). */
public final class DeviceIds {
  private static final Pattern DEVICE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private DeviceIds() {}

  public static boolean isValid(String deviceId) {
    return deviceId != null && DEVICE_ID.matcher(deviceId).matches();
  }
}
