package io.seqsync.ingress.notify;

import io.seqsync.store.ListSettingsQueries;
import io.seqsync.store.PusherQueries;
import java.util.Optional;

/**
 * What the push notification routes read and write: devices' pushers, users' list settings, the
 * VAPID public key browsers subscribe with (empty: Web Push off), and how many pushers a user may
 * hold. Immutable.
 */
public record PushStores(PusherQueries pushers, ListSettingsQueries listSettings, Optional<String> vapidPublicKey,
    int pushersPerUser) {}
