// Messages the adopting team's backend sends as the system (docs/api.md, "Server API"): their
// sender is the reserved id below, which no user signs in as. The chat shows them as notices.
export const SYSTEM_SENDER = '9223372036854775807';

export function fromSystem(message) {
  return message.senderId === SYSTEM_SENDER;
}
