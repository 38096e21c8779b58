// Rough token count used only to reserve tokens/min budget before a call; the reservation is
// settled with the provider's real usage afterwards, so ~4 characters per token is enough.
export function estimateTokens(text: string): number {
  return estimateTokensForChars(text.length);
}

export function estimateTokensForChars(chars: number): number {
  return Math.ceil(chars / 4);
}
