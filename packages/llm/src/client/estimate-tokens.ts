// Rough token count used only to reserve tokens/min budget before a call; the reservation is
// settled with the provider's real usage afterwards, so ~4 characters per token is enough.
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
