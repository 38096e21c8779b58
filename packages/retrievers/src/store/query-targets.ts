// What a query should retrieve: its relevant documents and, for PerSphere, the evidence of each
// gold perspective (Cover@k counts perspectives with at least one of theirs retrieved).
export interface QueryTargets {
  relevant: string[];
  perspectiveEvidence?: string[][];
}

interface PersphereData {
  claims: { perspectives: { evidence: string[] }[] }[];
}

// PerSphere: every perspective's evidence, and their union as the relevant documents.
export function persphereTargets(claims: PersphereData['claims']): Required<QueryTargets> {
  const perspectiveEvidence = claims.flatMap((c) => c.perspectives.map((p) => p.evidence));
  return { relevant: [...new Set(perspectiveEvidence.flat())], perspectiveEvidence };
}

export function queryTargets(kind: string, data: Record<string, unknown>): QueryTargets {
  if (kind === 'persphere') return persphereTargets((data as unknown as PersphereData).claims);
  return { relevant: (data as { relevant: string[] }).relevant };
}
