// What a query should retrieve: its relevant documents and, for PerSphere, the evidence of each
// gold perspective (Cover@k counts perspectives with at least one of theirs retrieved).
export interface QueryTargets {
  relevant: string[];
  perspectiveEvidence?: string[][];
}

interface PersphereData {
  claims: { perspectives: { evidence: string[] }[] }[];
}

export function queryTargets(kind: string, data: Record<string, unknown>): QueryTargets {
  if (kind === 'persphere') {
    const perspectiveEvidence = (data as unknown as PersphereData).claims.flatMap((c) =>
      c.perspectives.map((p) => p.evidence),
    );
    return { relevant: [...new Set(perspectiveEvidence.flat())], perspectiveEvidence };
  }
  return { relevant: (data as { relevant: string[] }).relevant };
}
