package io.seqsync.ingress.auth;

import io.seqsync.events.DeviceIds;
import java.util.Optional;

/** A service's name is its token's {@code sub}: 1-64 characters of A-Za-z0-9._- (it names its rate limit bucket). */
final class ServiceNames {
  static final String RULE = "a service name is 1-64 characters of A-Za-z0-9._-";

  private ServiceNames() {}

  static boolean isValid(String name) {
    return DeviceIds.isValid(name);
  }

  /** The service a verified service token names; a 401 when its subject is no service name. */
  static Optional<Service> service(String subject) {
    if (subject == null || !isValid(subject)) {
      throw new InvalidTokenException("invalid_service_claim", "a service token's sub must be its name: " + RULE);
    }
    return Optional.of(new Service(subject));
  }

  /** What a service token gets on a user's route. */
  static InvalidTokenException notAUser() {
    return new InvalidTokenException("service_token", "a service token calls the server API (/v1/server/...), not a user's routes");
  }
}
